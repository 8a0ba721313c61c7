#!/usr/bin/python3
"""The gate's fault suite: what an operator meets in a bad week, measured on
one or two gate binaries in the same run (the new one, and with --before an
older build to compare).

    gate_faults.py --bloomlab BIN [--before BIN] --cluster tests/gate/pg_cluster.sh
                   --state DIR/faults.url [--keys N] [--seconds S]

Cases, each on a fresh gate (blocked filter, p = 1%) over N keys (default
1,000,000) in SQLite, or in a private PostgreSQL cluster that this script
starts, freezes and stops:

  throughput    wrk -t2 -c64 on GET /check, 99% clean keys
  2000 clients  wrk -t2 -c2000, the same traffic; then 2,000 kept-alive
                connections each asking once, twice over: answered within 10 s
  slow clients  1,000 connections sending a header byte a second, then the
                throughput run beside them; then SIGTERM: seconds to exit
  bodies        3 (and 30) concurrent 64 MiB JSON arrays, and for the new
                gate 3 and 30 concurrent maximal valid batches: peak RSS
  frozen db     PostgreSQL stopped with SIGSTOP, 300 maybes in flight: the
                latency of 50 clean checks (2 s client timeout)
  lost listener rows inserted in SQL one by one, each asked about until it
                answers member; the listener's backend terminated meanwhile:
                the longest a row answered "no", before and after

It needs wrk and psql (scripts/deps.sh test installs both).
"""
import argparse
import json
import os
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "wrk", "check.lua")
PSQL = "/usr/lib/postgresql/15/bin/psql"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gate:
    def __init__(self, binary, db, table, extra=()):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, "gate", "--db", db, "--table", table, "--column", "k", "--port", str(self.port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.proc.stdout:
            if "serving at" in line:
                break
        else:
            raise RuntimeError("the gate did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def peak_rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def request(port, raw, timeout):
    """Sends raw bytes on a new connection; (status or None, seconds)."""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            try:
                s.sendall(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused before the body was sent: its answer may still be there
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            return int(data[9:12]) if data.startswith(b"HTTP/1.1 ") else None, time.monotonic() - t0
    except OSError:
        return None, time.monotonic() - t0


def get(port, key, timeout=10):
    return request(port, f"GET /check?key={key} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".encode(), timeout)


def wrk(port, traffic, connections, seconds):
    env = dict(os.environ, GATE_TRAFFIC=traffic, GATE_BATCH="0")
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency", "-s", LUA,
                          f"http://127.0.0.1:{port}"], env=env, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(\w+)", out)
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    p99_ms = float(p99.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[p99.group(2)] if p99 else float("nan")
    return {"rps": rps, "p99_ms": p99_ms, "errors": errors}


def make_sqlite(path, n):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
    db.executemany("INSERT INTO t VALUES (?)", ((f"ip-{i}",) for i in range(n)))
    db.commit()
    db.close()


def psql(url, sql):
    return subprocess.run([PSQL, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", sql],
                          capture_output=True, text=True, check=True).stdout.strip()


def make_pg(url, table, n):
    psql(url, f"DROP TABLE IF EXISTS {table}; CREATE TABLE {table} (k text PRIMARY KEY); "
              f"INSERT INTO {table} SELECT 'ip-' || i FROM generate_series(0, {n - 1}) i")


def traffic_file(path, n):
    with open(path, "w") as f:
        for i in range(100000):
            f.write(f"ip-{(i * 7919) % n}\n" if i % 100 == 0 else f"clean-{i}\n")


def case_throughput(binary, sqlite_path, traffic, seconds):
    g = Gate(binary, sqlite_path, "t")
    try:
        return {"64": wrk(g.port, traffic, 64, seconds), "2000": wrk(g.port, traffic, 2000, seconds)}
    finally:
        g.stop()


def case_many_clients(binary, sqlite_path, n=2000, rounds=2, limit=10.0):
    """n kept-alive connections, each sending a request and waiting for its
    answer, `rounds` times: how many were answered within `limit` seconds,
    and the latencies of those answered."""
    import selectors
    g = Gate(binary, sqlite_path, "t")
    socks = []
    try:
        for i in range(n):
            s = socket.create_connection(("127.0.0.1", g.port))
            s.setblocking(False)
            socks.append(s)
        answered, lat = 0, []
        for r in range(rounds):
            sel = selectors.DefaultSelector()
            t0 = time.monotonic()
            for i, s in enumerate(socks):
                s.send(f"GET /check?key=clean-{r}-{i} HTTP/1.1\r\nHost: a\r\n\r\n".encode())
                sel.register(s, selectors.EVENT_READ, i)
            waiting, got = n, {}
            while waiting and time.monotonic() - t0 < limit:
                for key, _ in sel.select(timeout=0.1):
                    try:
                        data = key.fileobj.recv(65536)
                    except BlockingIOError:
                        continue
                    got[key.data] = got.get(key.data, b"") + data
                    if not data or b"}" in got[key.data]:
                        sel.unregister(key.fileobj)
                        waiting -= 1
                        if data:
                            answered += 1
                            lat.append(time.monotonic() - t0)
            sel.close()
        lat.sort()
        pick = lambda q: 1e3 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")
        return {"answered": answered, "of": n * rounds, "p50_ms": pick(0.5), "p99_ms": pick(0.99)}
    finally:
        for s in socks:
            s.close()
        g.stop()


def case_slow_clients(binary, sqlite_path, traffic, seconds, n_slow=1000):
    g = Gate(binary, sqlite_path, "t")
    socks, stop = [], threading.Event()
    try:
        for _ in range(n_slow):
            s = socket.create_connection(("127.0.0.1", g.port))
            s.sendall(b"GET /check?key=x HTTP/1.1\r\n")
            socks.append(s)

        def drip():
            while not stop.wait(1.0):
                for s in socks:
                    try:
                        s.send(b"X")
                    except OSError:
                        pass
        threading.Thread(target=drip, daemon=True).start()
        result = wrk(g.port, traffic, 64, seconds)
        t0 = time.monotonic()
        g.proc.terminate()
        try:
            g.proc.wait(timeout=60)
            result["sigterm_s"] = time.monotonic() - t0
            result["exit"] = g.proc.returncode
        except subprocess.TimeoutExpired:
            result["sigterm_s"] = float("inf")
        return result
    finally:
        stop.set()
        for s in socks:
            s.close()
        g.stop()


def json_body(size):
    """A JSON array of short strings, `size` bytes."""
    item = '"clean-key-0000",'
    count = (size - 2) // len(item)
    return ("[" + item * count)[:-1] + "]" + " " * (size - 1 - len(item) * count)


def batch_body(size, keys=100000):
    """A JSON array of `keys` distinct keys filling `size` bytes: the largest
    batch the gate takes."""
    width = (size - 2) // keys - 3
    items = ",".join('"' + f"k{i}".ljust(width, "x") + '"' for i in range(keys))
    return "[" + items + "]"


def case_bodies(binary, sqlite_path, body, concurrent):
    g = Gate(binary, sqlite_path, "t")
    try:
        head = (f"POST /check HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        raw = head + body.encode()
        statuses = []
        threads = [threading.Thread(target=lambda: statuses.append(request(g.port, raw, 120)[0]))
                   for _ in range(concurrent)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return {"peak_rss_mb": g.peak_rss_mb(), "statuses": sorted(set(str(s) for s in statuses))}
    finally:
        g.stop()


def case_frozen(binary, url, cluster, state, n_maybes=300, n_clean=50):
    g = Gate(binary, url, "t_faults")
    try:
        subprocess.run([cluster, "freeze", state], check=True)
        holders = [threading.Thread(target=get, args=(g.port, f"ip-{i}", 15)) for i in range(n_maybes)]
        for t in holders:
            t.start()
        time.sleep(1.0)  # a benchmark, not a test: let the maybes take their threads
        times, answered = [], []

        def clean(i):
            status, s = get(g.port, f"clean-{i}", 2)
            times.append(s)
            answered.append(status == 200)
        cleaners = [threading.Thread(target=clean, args=(i,)) for i in range(n_clean)]
        for t in cleaners:
            t.start()
        for t in cleaners:
            t.join()
        subprocess.run([cluster, "thaw", state], check=True)
        for t in holders:
            t.join()
        times.sort()
        return {"answered": sum(answered), "of": n_clean, "p50_ms": 1e3 * times[len(times) // 2],
                "max_ms": 1e3 * times[-1]}
    finally:
        subprocess.run([cluster, "thaw", state])
        g.stop()


def case_lost_listener(binary, url, seconds=3.0):
    """Rows inserted in SQL one after another; after each insert returns,
    the gate is asked about the row until it says member. Its staleness is
    the time that took; the listener's backend is terminated a third of the
    way in."""
    psql(url, "DELETE FROM t_faults WHERE k LIKE 'w-%'")
    g = Gate(binary, url, "t_faults")
    sql = subprocess.Popen([PSQL, "-X", "-q", "-t", "-A", url], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, bufsize=1)
    before, after, false_after = [], [], 0
    t0, killed = time.monotonic(), False
    try:
        conn = socket.create_connection(("127.0.0.1", g.port))
        f = conn.makefile("rb")

        def member(key):
            conn.sendall(f"GET /check?key={key} HTTP/1.1\r\nHost: a\r\n\r\n".encode())
            length = 0
            while (line := f.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            return json.loads(f.read(length)).get("member") is True
        i = 0
        while time.monotonic() - t0 < seconds:
            if not killed and time.monotonic() - t0 > seconds / 3:
                psql(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                          "'bloomlab gate' AND query LIKE 'LISTEN %'")
                killed = True
            sql.stdin.write(f"INSERT INTO t_faults VALUES ('w-{i}');\n\\echo ok\n")
            sql.stdout.readline()
            acked = time.monotonic()
            falses = 0
            while not member(f"w-{i}") and time.monotonic() - acked < 10:
                falses += 1
            (after if killed else before).append(time.monotonic() - acked)
            if killed:
                false_after += falses
            i += 1
        conn.close()
    finally:
        sql.stdin.close()
        sql.wait()
        g.stop()
    return {"inserts": len(before) + len(after), "stale_before_ms": 1e3 * max(before, default=0),
            "stale_after_ms": 1e3 * max(after, default=0), "false_after": false_after}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bloomlab", required=True)
    ap.add_argument("--before", help="an older bloomlab binary to measure beside it")
    ap.add_argument("--cluster", required=True, help="tests/gate/pg_cluster.sh")
    ap.add_argument("--state", required=True, help="where the private cluster's URL is kept")
    ap.add_argument("--keys", type=int, default=1000000)
    ap.add_argument("--seconds", type=int, default=5)
    a = ap.parse_args()
    binaries = [("after", a.bloomlab)] + ([("before", a.before)] if a.before else [])

    tmp = tempfile.mkdtemp(prefix="bloomlab-faults-")
    sqlite_path, traffic = os.path.join(tmp, "keys.sqlite"), os.path.join(tmp, "traffic.txt")
    make_sqlite(sqlite_path, a.keys)
    traffic_file(traffic, a.keys)
    subprocess.run([a.cluster, "start", a.state], check=True, stdout=subprocess.DEVNULL)
    try:
        url = open(a.state).read().strip()
        make_pg(url, "t_faults", a.keys)
        print(f"# gate fault suite, {a.keys:,} keys, blocked filter, p = 1%, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores\n")
        rows = []
        for label, binary in binaries:
            r = {"build": label}
            r["throughput"] = case_throughput(binary, sqlite_path, traffic, a.seconds)
            r["many"] = case_many_clients(binary, sqlite_path)
            r["slow"] = case_slow_clients(binary, sqlite_path, traffic, a.seconds)
            r["body64x3"] = case_bodies(binary, sqlite_path, json_body(64 << 20), 3)
            if label == "after":
                r["body64x30"] = case_bodies(binary, sqlite_path, json_body(64 << 20), 30)
                r["batch8x3"] = case_bodies(binary, sqlite_path, batch_body(8 << 20), 3)
                r["batch8x30"] = case_bodies(binary, sqlite_path, batch_body(8 << 20), 30)
            r["frozen"] = case_frozen(binary, url, a.cluster, a.state)
            r["listener"] = case_lost_listener(binary, url)
            rows.append(r)
            print(json.dumps(r), file=sys.stderr)
        print("| case | " + " | ".join(r["build"] for r in rows) + " |")
        print("|---|" + "---|" * len(rows))

        def line(name, fmt):
            print(f"| {name} | " + " | ".join(fmt(r) for r in rows) + " |")
        line("GET /check, wrk -c64: requests/s, p99", lambda r: f"{r['throughput']['64']['rps']:,.0f}/s, {r['throughput']['64']['p99_ms']:.1f} ms, {r['throughput']['64']['errors']} errors")
        line("wrk -c2000: requests/s, p99 (of the requests answered)", lambda r: f"{r['throughput']['2000']['rps']:,.0f}/s, {r['throughput']['2000']['p99_ms']:.0f} ms, {r['throughput']['2000']['errors']} errors")
        line("2,000 kept-alive clients, one request each, twice: answered within 10 s, p50, p99", lambda r: f"{r['many']['answered']:,} of {r['many']['of']:,}, {r['many']['p50_ms']:.0f} ms, {r['many']['p99_ms']:.0f} ms")
        line("beside 1,000 slow clients, wrk -c64", lambda r: f"{r['slow']['rps']:,.0f}/s, p99 {r['slow']['p99_ms']:.1f} ms, {r['slow']['errors']} errors")
        line("SIGTERM with 1,000 slow clients: seconds to exit", lambda r: f"{r['slow']['sigterm_s']:.2f} s (exit {r['slow'].get('exit')})")
        line("3 x 64 MiB JSON bodies: peak RSS", lambda r: f"{r['body64x3']['peak_rss_mb']:,.0f} MB ({', '.join(r['body64x3']['statuses'])})")
        line("30 x 64 MiB JSON bodies: peak RSS", lambda r: f"{r['body64x30']['peak_rss_mb']:,.0f} MB ({', '.join(r['body64x30']['statuses'])})" if "body64x30" in r else "not run (3 took the figure above)")
        line("3 x 8 MiB valid batches: peak RSS", lambda r: f"{r['batch8x3']['peak_rss_mb']:,.0f} MB ({', '.join(r['batch8x3']['statuses'])})" if "batch8x3" in r else "-")
        line("30 x 8 MiB valid batches: peak RSS", lambda r: f"{r['batch8x30']['peak_rss_mb']:,.0f} MB ({', '.join(r['batch8x30']['statuses'])})" if "batch8x30" in r else "-")
        line("PostgreSQL frozen, 300 maybes held: clean checks answered in 2 s", lambda r: f"{r['frozen']['answered']} of {r['frozen']['of']}, p50 {r['frozen']['p50_ms']:.1f} ms, max {r['frozen']['max_ms']:.0f} ms")
        line("rows inserted in SQL: the longest a row answered no, before / after the listener was terminated", lambda r: f"{r['listener']['stale_before_ms']:.1f} ms / {r['listener']['stale_after_ms']:.1f} ms ({r['listener']['inserts']} rows, {r['listener']['false_after']} false answers after)")
        print(f"\nload average at end: {os.getloadavg()[0]:.2f}")
    finally:
        subprocess.run([a.cluster, "stop", a.state], stdout=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
