#!/usr/bin/python3
"""The gate over HTTP under wrk: requests a second, latency and database
queries, with no filter, a classic filter and a blocked filter in front of
the same table (SQLite and PostgreSQL), on the same traffic.

    gate_http.py --bloomlab BIN --traffic FILE [--sqlite FILE] [--pg URL]
                 [--seconds S] [--connections C] [--threads T] [--batch B]

The tables and the traffic file are bench_gate's (make bench-gate runs it
first): SQLite table banned, PostgreSQL table bench_banned, column ip. For
each table and kind it starts `bloomlab gate --kind K` on a free port, then
runs wrk twice with bench/wrk/check.lua: GET /check?key=K (one key a
request, kept-alive connections) and POST /check with B keys a body. The
gate's own /stats, read before and after each run, give the database queries
per 1,000 checks and the false positives among the clean checks, which are
set beside the filter's expected rate with a 99.9% binomial interval (over
the traffic file's distinct clean keys: a run that goes round the file
sends the same false positives again).
"""
import argparse
import json
import math
import os
import re
import socket
import subprocess
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "wrk", "check.lua")
KINDS = ("none", "classic", "blocked")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stats(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=30) as r:
        return json.load(r)


class Gate:
    def __init__(self, bloomlab, db, table, kind):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [bloomlab, "gate", "--db", db, "--table", table, "--column", "ip", "--kind", kind,
             "--port", str(self.port)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.banner = []
        for line in self.proc.stdout:
            self.banner.append(line.rstrip())
            if "serving at" in line:
                return
        raise RuntimeError(f"bloomlab gate --kind {kind} on {db} stopped before serving: {self.banner}")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def to_ms(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(m.group(1)) * UNITS[m.group(2)]


def wrk(args, port, batch):
    env = dict(os.environ, GATE_TRAFFIC=args.traffic, GATE_BATCH=str(batch))
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.seconds}s", "--latency",
           "-s", LUA, f"http://127.0.0.1:{port}/"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.seconds + 120).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    pct = dict(re.findall(r"^\s*(50|99)%\s+(\S+)\s*$", out, re.M))
    if not rps or "50" not in pct or "99" not in pct:
        raise RuntimeError(f"wrk gave no figures:\n{out}")
    rps = float(rps.group(1))
    errors = re.search(r"Socket errors:.*", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": to_ms(pct["50"]), "p99": to_ms(pct["99"]),
            "errors": (errors.group(0) if errors else "") + (f" non-2xx {non2xx.group(1)}" if non2xx else ""),
            "raw": out}


def interval(n, p, z=3.29):
    sd = math.sqrt(n * p * (1 - p))
    return max(0.0, n * p - z * sd), n * p + z * sd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bloomlab", required=True)
    ap.add_argument("--traffic", required=True)
    ap.add_argument("--sqlite")
    ap.add_argument("--pg")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=100)
    args = ap.parse_args()
    tables = []
    if args.sqlite:
        tables.append(("SQLite", args.sqlite, "banned"))
    if args.pg:
        tables.append(("PostgreSQL", args.pg, "bench_banned"))
    if not tables:
        ap.error("give --sqlite FILE, --pg URL or both")

    with open(args.traffic) as f:
        lines = sum(1 for _ in f)
    print(f"gate_http: wrk -t{args.threads} -c{args.connections} -d{args.seconds}s, traffic {args.traffic}, "
          f"({lines:,} keys), POST batches of {args.batch} keys; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at start")
    print()
    print("| database | filter | request | requests/s | keys/s | p50 ms | p99 ms | database queries per 1,000 checks "
          "| clean checks let through (expected, 99.9% interval) | errors |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    raws = []
    for name, db, table in tables:
        for kind in KINDS:
            gate = Gate(args.bloomlab, db, table, kind)
            try:
                for batch in (0, args.batch):
                    before = stats(gate.port)
                    w = wrk(args, gate.port, batch)
                    after = stats(gate.port)
                    d = {f: after[f] - before[f] for f in ("checks", "database_queries", "answered_by_filter",
                                                         "false_positives")}
                    clean = d["answered_by_filter"] + d["false_positives"]
                    per_1000 = 1000.0 * d["database_queries"] / max(1, d["checks"])
                    if kind == "none":
                        through = "all (no filter)"
                    else:
                        # A run that goes round the traffic file more than once
                        # sends the same clean keys again, and with them the same
                        # false positives: the chance is in the file's distinct
                        # clean keys, scaled by the rounds.
                        distinct = min(clean, round(lines * clean / max(1, d["checks"])))
                        lo, hi = (x * clean / max(1, distinct) for x in interval(distinct, after["p_expected"]))
                        through = (f"{d['false_positives']:,} of {clean:,} = {100.0 * d['false_positives'] / max(1, clean):.3f}% "
                                   f"({100 * after['p_expected']:.3f}%, {lo:,.0f}..{hi:,.0f})")
                    req = "GET /check" if batch == 0 else f"POST /check x{batch}"
                    keys_s = w["rps"] * max(1, batch)
                    print(f"| {name} | {kind} | {req} | {w['rps']:,.0f} | {keys_s:,.0f} | {w['p50']:.2f} | "
                          f"{w['p99']:.2f} | {per_1000:.1f} | {through} | {w['errors'] or 'none'} |", flush=True)
                    raws.append(f"## {name}, {kind}, {req}\n{gate.banner[0]}\n{w['raw']}")
            finally:
                gate.stop()
    print()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print()
    print("\n".join(raws))


if __name__ == "__main__":
    sys.exit(main())
