#!/usr/bin/python3
"""The gate's Redis port beside redis-server, in one run: the same
redis-benchmark invocation (clients, requests, key range) against Debian's
redis-server holding N keys in a set (SISMEMBER, SMISMEMBER) and against
`bloomlab gate --resp-port` holding them in a Bloom filter at 1% (BF.EXISTS,
BF.MEXISTS), unpipelined with 50 clients and pipelined 16 deep; then the
memory each holds them in (redis's used_memory and RSS, the gate's RSS);
then the gate in front of an SQLite table of the same keys, BF.EXISTS over
RESP beside GET /check over HTTP (wrk).

    resp_bench.py --bloomlab BIN [--keys N ...] [--requests R]

Keys are redis-benchmark's __rand_int__ values (12 zero-padded digits) for
0 to N-1; queries draw from 0 to 2N-1, so half are members.
"""
import argparse
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, limit=120):
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if proc.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def load(port, command, key, n, per=1000):
    """Sends `command key k1 ... k_per` for all n keys through redis-cli --pipe."""
    def resp(args):
        out = f"*{len(args)}\r\n"
        for a in args:
            out += f"${len(a)}\r\n{a}\r\n"
        return out
    p = subprocess.Popen(["redis-cli", "-p", str(port), "--pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    for start in range(0, n, per):
        p.stdin.write(resp([command, key] + [f"{i:012d}" for i in range(start, min(n, start + per))]))
    p.stdin.close()
    out = p.stdout.read()
    p.wait()
    if "errors: 0" not in out:
        raise RuntimeError(f"loading {command} into port {port}: {out}")


def bench(port, args, requests, pipeline, clients=50, key_range=1):
    cmd = ["redis-benchmark", "-p", str(port), "-n", str(requests), "-c", str(clients), "-r", str(key_range),
           "-P", str(pipeline), "--csv"] + args
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    rows = [line for line in out.splitlines() if line.startswith('"') and not line.startswith('"test"')]
    fields = rows[-1].replace('"', "").split(",")
    return float(fields[1]), float(fields[2])  # requests a second, mean latency ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bloomlab", required=True)
    ap.add_argument("--keys", type=int, nargs="+", default=[1000000, 10000000])
    ap.add_argument("--requests", type=int, default=1000000)
    a = ap.parse_args()
    print(f"# The Redis port beside redis-server, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores; "
          f"{subprocess.run(['redis-server', '--version'], capture_output=True, text=True).stdout.split()[2]}\n")
    print("| keys | test | redis-server | bloomlab gate | gate / redis |")
    print("|---|---|---|---|---|")
    tmp = tempfile.mkdtemp(prefix="bloomlab-resp-")
    for n in a.keys:
        rport, gport = free_port(), free_port()
        redis = subprocess.Popen(["redis-server", "--port", str(rport), "--bind", "127.0.0.1", "--save", "",
                                  "--appendonly", "no", "--dir", tmp], stdout=subprocess.DEVNULL)
        gate = subprocess.Popen([a.bloomlab, "gate", "--resp-port", str(gport)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            wait_port(rport, redis)
            wait_port(gport, gate)
            subprocess.run(["redis-cli", "-p", str(gport), "BF.RESERVE", "f", "0.01", str(n)], check=True,
                           capture_output=True)
            load(rport, "SADD", "s", n)
            load(gport, "BF.MADD", "f", n)
            r = 2 * n
            many = lambda: ["__rand_int__"] * 100
            cases = [("single, 50 clients", ["SISMEMBER", "s", "__rand_int__"], ["BF.EXISTS", "f", "__rand_int__"], 1,
                      a.requests),
                     ("single, pipelined 16", ["SISMEMBER", "s", "__rand_int__"], ["BF.EXISTS", "f", "__rand_int__"],
                      16, a.requests),
                     ("100 items a request", ["SMISMEMBER", "s"] + many(), ["BF.MEXISTS", "f"] + many(), 1,
                      a.requests // 20)]
            for name, rcmd, gcmd, pipe, reqs in cases:
                rr, _ = bench(rport, rcmd, reqs, pipe, key_range=r)
                gr, _ = bench(gport, gcmd, reqs, pipe, key_range=r)
                print(f"| {n:,} | {name}: requests/s | {rr:,.0f} | {gr:,.0f} | {gr / rr:.2f} |", flush=True)
            info = subprocess.run(["redis-cli", "-p", str(rport), "INFO", "memory"], capture_output=True,
                                  text=True).stdout
            used = int(re.search(r"used_memory:(\d+)", info).group(1)) / 2**20
            print(f"| {n:,} | memory, MB | {used:,.0f} (used_memory; RSS {rss_mb(redis.pid):,.0f}) | "
                  f"{rss_mb(gate.pid):,.0f} (RSS) | {rss_mb(gate.pid) / used:.3f} |", flush=True)
        finally:
            for p in (redis, gate):
                p.terminate()
                p.wait()
    # The table behind the gate over both protocols.
    n = a.keys[0]
    path = os.path.join(tmp, "keys.sqlite")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
    db.executemany("INSERT INTO t VALUES (?)", ((f"{i:012d}",) for i in range(n)))
    db.commit()
    db.close()
    hport, gport = free_port(), free_port()
    gate = subprocess.Popen([a.bloomlab, "gate", "--db", path, "--table", "t", "--column", "k", "--port", str(hport),
                             "--resp-port", str(gport)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(gport, gate)
        wait_port(hport, gate)
        gr, _ = bench(gport, ["BF.EXISTS", "t", "__rand_int__"], a.requests // 4, 1, key_range=100 * n)
        traffic = os.path.join(tmp, "traffic.txt")
        with open(traffic, "w") as f:
            for i in range(100000):
                f.write(f"{(i * 7919) % (100 * n):012d}\n")
        env = dict(os.environ, GATE_TRAFFIC=traffic, GATE_BATCH="0")
        out = subprocess.run(["wrk", "-t2", "-c50", "-d5s", "-s", os.path.join(HERE, "wrk", "check.lua"),
                              f"http://127.0.0.1:{hport}"], env=env, capture_output=True, text=True).stdout
        hr = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        print(f"| {n:,} in SQLite | the table as a key, 1% members: RESP BF.EXISTS / HTTP GET /check (wrk), 50 clients "
              f"| {hr:,.0f} (HTTP) | {gr:,.0f} (RESP) | {gr / hr:.2f} |")
    finally:
        gate.terminate()
        gate.wait()
        subprocess.run(["rm", "-rf", tmp])
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
