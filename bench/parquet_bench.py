#!/usr/bin/python3
"""Reading the filters of many Parquet files, bloomlab beside DuckDB, in one
run: DuckDB (npm @duckdb/node-api) writes FILES files of ROWS rows (two row
groups each, a filter on each of two columns at 1%); then, each timed as a
whole process with its peak memory (getrusage of the child), REPEAT times
interleaved, medians:

  - `bloomlab parquet DIR/*.parquet --json` (every filter's report) beside
    DuckDB's parquet_metadata over the same files;
  - one value probed against every row group's filter: `bloomlab parquet
    --column id --probe V` beside DuckDB's parquet_bloom_probe;
  - the start of each process doing nothing (`bloomlab --version`, DuckDB's
    SELECT 1), to separate start-up from work.

    parquet_bench.py --bloomlab BIN [--files N] [--rows R] [--repeat K]
"""
import argparse
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DUCK = os.path.join(HERE, "parquet_files.mjs")


def run_measured(cmd):
    """Runs cmd in a fresh child and returns (seconds, peak RSS MB, stdout)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.chdir(HERE)
        os.execvp(cmd[0], cmd)
    os.close(w)
    t0 = time.monotonic()
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.monotonic() - t0
    os.close(r)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd[:4])} exited {code}")
    return elapsed, usage.ru_maxrss / 1024, b"".join(chunks)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bloomlab", required=True)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    bl = os.path.abspath(a.bloomlab)
    with tempfile.TemporaryDirectory(prefix="bloomlab-pq-bench-") as d:
        t0 = time.monotonic()
        subprocess.run(["node", DUCK, "write", d, str(a.files), str(a.rows)], check=True, cwd=HERE,
                       stdout=subprocess.DEVNULL)
        print(f"wrote {a.files} files of {a.rows} rows with DuckDB in {time.monotonic() - t0:.1f} s", file=sys.stderr)
        files = sorted(glob.glob(os.path.join(d, "*.parquet")))
        pattern = os.path.join(d, "*.parquet")
        total = sum(os.path.getsize(f) for f in files)
        cases = {
            "bloomlab: every filter's report": [bl, "parquet", "--json", *files],
            "DuckDB: parquet_metadata": ["node", DUCK, "metadata", pattern],
            "bloomlab: one value, every row group": [bl, "parquet", *files, "--json", "--column", "id", "--probe", "42"],
            "DuckDB: parquet_bloom_probe": ["node", DUCK, "probe", pattern, "id", "42"],
            "bloomlab: start alone": [bl, "--version"],
            "DuckDB: start alone (SELECT 1)": ["node", DUCK, "nothing"],
        }
        times = {k: [] for k in cases}
        rss = {k: [] for k in cases}
        outs = {}
        for _ in range(a.repeat):
            for name, cmd in cases.items():  # interleaved: each repetition runs every case
                s, m, out = run_measured(cmd)
                times[name].append(s)
                rss[name].append(m)
                outs[name] = out
        # What each side found, to show both read the same filters.
        ours = json.loads(outs["bloomlab: every filter's report"])
        filters = sum(1 for f in ours["files"] for g in f["row_groups"] for c in g["columns"] if c.get("bloom_filter"))
        theirs = json.loads(outs["DuckDB: parquet_metadata"])
        probe = json.loads(outs["bloomlab: one value, every row group"])
        groups = sum(len(f["row_groups"]) for f in probe["files"])
        ruled_out = sum(1 for f in probe["files"] for g in f["row_groups"] for c in g["columns"]
                        if c["path"] == "id" and c["probes"][0] == "no")
        duck_probe = json.loads(outs["DuckDB: parquet_bloom_probe"])
        print(f"# Reading the filters of {a.files:,} Parquet files ({total / 1e6:.1f} MB), "
              f"{time.strftime('%Y-%m-%d', time.gmtime())}\n")
        print(f"Each file: {a.rows:,} rows in two row groups, filters on `id` (BIGINT, 250 distinct) and `name` (VARCHAR, 300) at 1%, "
              f"written by DuckDB. bloomlab found {filters:,} filters, DuckDB {theirs['filters']:,} "
              f"({int(theirs['bytes']):,} bytes). Probing id = 42: bloomlab ruled out {ruled_out:,} of {groups:,} row "
              f"groups, DuckDB {duck_probe['excluded']:,} of {duck_probe['row_groups']:,}.\n")
        print(f"Whole processes, median of {a.repeat} interleaved runs (min-max), peak RSS median. "
              f"Machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end.\n")
        print("| case | seconds | peak RSS, MB |")
        print("|---|---|---|")
        for name in cases:
            ts = times[name]
            print(f"| {name} | {statistics.median(ts):.3f} ({min(ts):.3f}-{max(ts):.3f}) | "
                  f"{statistics.median(rss[name]):.1f} |")
        per = statistics.median(times["bloomlab: one value, every row group"]) - \
            statistics.median(times["bloomlab: start alone"])
        print(f"\nbloomlab's probe, less its start: {groups / per:,.0f} row groups a second "
              f"(each a footer read and one filter lookup).")


if __name__ == "__main__":
    main()
