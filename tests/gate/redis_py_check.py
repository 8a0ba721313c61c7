#!/usr/bin/python3
"""redis-py (Debian's python3-redis) against the gate's Redis port: the
bloom client's create, add, madd, exists, mexists and info, a pipeline, and
an error a client catches; the cuckoo client's create, add, addnx, insert,
exists, mexists, count, delete and info. Run by GateResp.RedisPyBloomClient
with the port.
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

    cf = r.cf()
    assert cf.create("pycf", 1000) in (True, "OK")
    assert cf.add("pycf", "alice") == 1
    assert cf.add("pycf", "alice") == 1  # duplicates are allowed
    assert cf.addnx("pycf", "alice") == 0
    assert cf.addnx("pycf", "bob") == 1
    assert cf.insert("pycf", ["carol", "dave"]) == [1, 1]
    assert cf.insertnx("pycf", ["carol", "erin"]) == [0, 1]
    assert cf.exists("pycf", "alice") == 1
    assert cf.exists("pycf", "zed") == 0
    assert cf.mexists("pycf", "bob", "zed") == [1, 0]
    assert cf.count("pycf", "alice") == 2
    assert cf.delete("pycf", "alice") == 1
    assert cf.count("pycf", "alice") == 1
    info = cf.info("pycf")
    assert info.insertedNum == 5, info.insertedNum
    assert info.deletedNum == 1, info.deletedNum
    assert info.filterNum == 1, info.filterNum
    assert info.bucketNum == 512, info.bucketNum  # 1000 / 2, up to a power of two
    assert info.bucketSize == 2, info.bucketSize  # RedisBloom's default BUCKETSIZE
    assert info.expansionRate == 1, info.expansionRate
    assert info.maxIteration == 20, info.maxIteration
    assert r.type("pycf") == "MBbloomCF"
    # BUCKETSIZE through the client's own argument; CF.COMPACT, which
    # redis-py has no method for, as a plain command.
    assert cf.create("pycf4", 64, bucket_size=4, expansion=1) in (True, "OK")
    assert cf.insert("pycf4", [f"c{i}" for i in range(300)]) == [1] * 300
    info4 = cf.info("pycf4")
    assert info4.bucketSize == 4, info4.bucketSize
    assert info4.bucketNum == 16, info4.bucketNum  # 64 / 4
    assert info4.filterNum > 1, info4.filterNum
    assert cf.delete("pycf4", "c0") == 1
    assert r.execute_command("CF.COMPACT", "pycf4") in (True, "OK")
    assert cf.info("pycf4").deletedNum == 0
    assert cf.mexists("pycf4", *[f"c{i}" for i in range(1, 300)]) == [1] * 299
    try:
        cf.delete("nocf", "alice")
        raise AssertionError("a delete from a missing key was accepted")
    except redis.exceptions.ResponseError as e:
        assert "not found" in str(e), str(e)
    try:
        bf.add("pycf", "alice")
        raise AssertionError("BF.ADD to a cuckoo filter was accepted")
    except redis.exceptions.ResponseError as e:
        assert "WRONGTYPE" in str(e), str(e)
    print("redis-py: all checks passed")


if __name__ == "__main__":
    main(int(sys.argv[1]))
