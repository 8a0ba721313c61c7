#!/usr/bin/python3
"""redis-py (Debian's python3-redis) against the gate's Redis port: the
bloom client's create, add, madd, exists, mexists and info, a pipeline, and
an error a client catches. Run by GateResp.RedisPyBloomClient with the port.
"""
import sys

import redis


def main(port):
    r = redis.Redis(host="127.0.0.1", port=port, decode_responses=True)
    bf = r.bf()
    assert r.ping() is True
    assert bf.create("py", 0.01, 1000) in (True, "OK")
    assert bf.add("py", "alice") == 1
    assert bf.add("py", "alice") == 0
    assert bf.madd("py", "bob", "carol") == [1, 1]
    assert bf.exists("py", "bob") == 1
    assert bf.exists("py", "dave") == 0
    assert bf.mexists("py", "alice", "dave") == [1, 0]
    info = bf.info("py")
    assert info.capacity == 1000, info.capacity
    assert info.insertedNum == 3, info.insertedNum
    assert info.filterNum == 1, info.filterNum
    assert info.expansionRate == 2, info.expansionRate
    assert r.execute_command("BF.CARD", "py") == 3
    try:
        bf.create("py", 0.01, 10)
        raise AssertionError("a second create was accepted")
    except redis.exceptions.ResponseError as e:
        assert "item exists" in str(e), str(e)
    p = r.pipeline(transaction=False)
    for i in range(500):
        p.execute_command("BF.ADD", "piped", f"k{i}")
    added = p.execute()
    # 1 for an item new to the filter, 0 for one that already read "maybe"
    # (a false positive of a filter of RedisBloom's default size, 100 items).
    assert set(added) <= {0, 1} and sum(added) >= 480, added
    assert r.execute_command("BF.CARD", "piped") == sum(added)
    p = r.pipeline(transaction=False)
    for i in range(500):
        p.execute_command("BF.EXISTS", "piped", f"k{i}")
    assert p.execute() == [1] * 500
    assert r.dbsize() == 2
    assert sorted(r.keys("*")) == ["piped", "py"]
    assert r.type("py") == "MBbloom--"
    assert r.delete("piped") == 1
    print("redis-py: all checks passed")


if __name__ == "__main__":
    main(int(sys.argv[1]))
