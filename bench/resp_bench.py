#!/usr/bin/python3
"""The gate's Redis port beside redis-server, in one run: the same
redis-benchmark invocation (clients, requests, key range) against Debian's
redis-server holding N keys in a set (SISMEMBER, SMISMEMBER) and against
`bloomlab gate --resp-port` holding them in a Bloom filter at 1% (BF.EXISTS,
BF.MEXISTS), unpipelined with 50 clients and pipelined 16 deep; then the
memory each holds them in (redis's used_memory and RSS, the gate's RSS);
then the gate in front of an SQLite table of the same keys, BF.EXISTS over
RESP beside GET /check over HTTP (wrk).

Then why, at the first key count: each server's memory empty and loaded
(resident, anonymous and file-backed, threads), the filter's own bytes
(BF.INFO SIZE) beside redis's used_memory, and the system calls, context
switches and CPU time each server spends a request under the same
redis-benchmark load (perf stat on the server's process, or strace -c -f
where perf is missing).

    resp_bench.py --bloomlab BIN [--keys N ...] [--requests R]

Keys are redis-benchmark's __rand_int__ values (12 zero-padded digits) for
0 to N-1; queries draw from 0 to 2N-1, so half are members.
"""
import argparse
import os
import re
import resource
import shutil
import signal
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
    return mem(pid)["VmRSS"]


def mem(pid):
    """The process's resident memory in MB (VmRSS, RssAnon, RssFile) and its threads."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile"):
                out[name] = int(value.split()[0]) / 1024
            elif name == "Threads":
                out[name] = int(value)
    return out


SYSCALL_EVENTS = ["read", "recvfrom", "write", "sendto", "epoll_wait", "futex"]


def syscalls(pid, port, args, requests, pipeline, key_range):
    """Runs redis-benchmark against `port` while counting the server's
    system calls: {"total", "read", ..., "switches", "cpu_ms", "tool", "rate"}."""
    events = ["raw_syscalls:sys_enter"] + [f"syscalls:sys_enter_{e}" for e in SYSCALL_EVENTS] + \
        ["context-switches", "task-clock"]
    out_path = os.path.join(tempfile.gettempdir(), f"resp-bench-perf-{os.getpid()}.txt")
    have_perf = subprocess.run(["perf", "stat", "-e", "raw_syscalls:sys_enter", "true"],
                               capture_output=True).returncode == 0 if shutil.which("perf") else False
    if have_perf:
        tool = subprocess.Popen(["perf", "stat", "-x,", "-e", ",".join(events), "-p", str(pid), "-o", out_path],
                                stderr=subprocess.DEVNULL)
        time.sleep(0.5)  # perf stat attaches at once; this leaves it the time
    elif shutil.which("strace"):
        tool = subprocess.Popen(["strace", "-c", "-f", "-qq", "-p", str(pid), "-o", out_path],
                                stderr=subprocess.DEVNULL)
        time.sleep(1.0)
    else:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    rate, _ = bench(port, args, requests, pipeline, key_range=key_range)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # redis-benchmark's own time (the tool is not reaped yet)
    client_ms = 1000 * (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    tool.send_signal(signal.SIGINT)
    tool.wait()
    with open(out_path) as f:
        text = f.read()
    os.unlink(out_path)
    r = {"tool": "perf stat" if have_perf else "strace -c -f", "rate": rate, "client_ms": client_ms}
    if have_perf:
        for line in text.splitlines():
            parts = line.split(",")
            if len(parts) < 3 or line.startswith("#") or not parts[0].replace(".", "").isdigit():
                continue
            value, event = float(parts[0]), parts[2]
            if event == "raw_syscalls:sys_enter":
                r["total"] = value
            elif event.startswith("syscalls:sys_enter_"):
                r[event[len("syscalls:sys_enter_"):]] = value
            elif event == "context-switches":
                r["switches"] = value
            elif event == "task-clock":
                r["cpu_ms"] = value
    else:
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 5 and parts[-1] in SYSCALL_EVENTS:
                r[parts[-1]] = float(parts[3])
            elif len(parts) >= 4 and parts[-1] == "total":
                r["total"] = float(parts[3])
    return r


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


def explain(n, used_mb, filter_bytes, empty, loaded, calls, requests):
    """The tables that say where the memory and the time per request go."""
    out = [f"\n## Why, at {n:,} keys\n", "Memory, MB (resident = anonymous + file-backed; threads):\n",
           "| server | empty: resident / anon / file, threads | loaded: resident / anon / file | its own count |",
           "|---|---|---|---|"]
    for who, own in (("redis-server", f"{used_mb:,.1f} (used_memory)"),
                     ("bloomlab gate", f"{filter_bytes / 2**20:,.2f} (the filter, BF.INFO SIZE)")):
        e, l = empty["redis" if who == "redis-server" else "gate"], loaded["redis" if who == "redis-server" else "gate"]
        out.append(f"| {who} | {e['VmRSS']:.1f} / {e['RssAnon']:.1f} / {e['RssFile']:.1f}, {e['Threads']} | "
                   f"{l['VmRSS']:.1f} / {l['RssAnon']:.1f} / {l['RssFile']:.1f} | {own} |")
    r, g = loaded["redis"], loaded["gate"]
    out.append(f"\nGate / redis: resident {g['VmRSS'] / r['VmRSS']:.3f}; anonymous {g['RssAnon'] / r['RssAnon']:.3f}; "
               f"resident / used_memory {g['VmRSS'] / used_mb:.3f}; the filter / used_memory "
               f"{filter_bytes / 2**20 / used_mb:.3f}; growth over empty (resident) "
               f"{(g['VmRSS'] - empty['gate']['VmRSS']) / (r['VmRSS'] - empty['redis']['VmRSS']):.3f}.\n")
    if any(c is None for c in calls):
        out.append("System calls: neither perf nor strace is here; not measured.")
        return "\n".join(out)
    out.append(f"System calls a request, {requests:,} requests, 50 clients ({calls[0]['tool']} on the server):\n")
    out.append("| server, test | requests/s | all | " + " | ".join(SYSCALL_EVENTS) +
               " | context switches | server CPU, µs | redis-benchmark CPU, µs |")
    out.append("|---|---|---|" + "---|" * len(SYSCALL_EVENTS) + "---|---|---|")
    for c, who in zip(calls, ("redis-server SISMEMBER", "bloomlab gate BF.EXISTS",
                              "redis-server SISMEMBER, pipelined 16", "bloomlab gate BF.EXISTS, pipelined 16")):
        per = lambda k: f"{c[k] / requests:.2f}" if k in c else "-"
        cpu = f"{c['cpu_ms'] * 1000 / requests:.2f}" if "cpu_ms" in c else "-"
        out.append(f"| {who} | {c['rate']:,.0f} | {per('total')} | " + " | ".join(per(e) for e in SYSCALL_EVENTS) +
                   f" | {per('switches')} | {cpu} | {c['client_ms'] * 1000 / requests:.2f} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bloomlab", required=True)
    ap.add_argument("--keys", type=int, nargs="+", default=[1000000, 10000000])
    ap.add_argument("--requests", type=int, default=1000000)
    ap.add_argument("--calls", type=int, default=200000, help="requests counted for system calls")
    a = ap.parse_args()
    why = []
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
            time.sleep(0.5)  # both settled: threads started, first allocations made
            empty = {"redis": mem(redis.pid), "gate": mem(gate.pid)}
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
            if n == a.keys[0]:
                size = subprocess.run(["redis-cli", "-p", str(gport), "BF.INFO", "f", "SIZE"], capture_output=True,
                                      text=True).stdout.split()
                why.append(explain(n, used, int(size[-1]), empty, {"redis": mem(redis.pid), "gate": mem(gate.pid)},
                                   [syscalls(redis.pid, rport, ["SISMEMBER", "s", "__rand_int__"], a.calls, 1, r),
                                    syscalls(gate.pid, gport, ["BF.EXISTS", "f", "__rand_int__"], a.calls, 1, r),
                                    syscalls(redis.pid, rport, ["SISMEMBER", "s", "__rand_int__"], a.calls, 16, r),
                                    syscalls(gate.pid, gport, ["BF.EXISTS", "f", "__rand_int__"], a.calls, 16, r)],
                                   a.calls))
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
    for part in why:
        print(part)
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
