#!/usr/bin/env python3
"""Medians of bench/batch_ab.cpp runs of two builds, side by side.

The input is the output of runs of two builds, each run preceded by a line
`# round R A` or `# round R B` naming its build (A, the candidate; B, the
reference). For each kind and array size it prints the median over the
rounds of each of batch_ab's six figures (integer keys: add, member and
non-member lookups; then string keys), as A:B=ratio; a ratio under 1 means
A took less time. With --best, the least over the rounds instead of the
median: on a shared machine a whole process can run slow (a busy sibling
thread on its core stretches its CPU time too), and that only adds time.

Usage: bench/batch_ab_table.py [--best] RUNS.txt
"""
import collections
import re
import statistics
import sys

HEAD = re.compile(r"# round \d+ (\w)")
ROW = re.compile(r"(\w+) n=(\d+) KiB=(\d+) int add ([\d.]+) member ([\d.]+) non ([\d.]+) "
                 r"\| str add ([\d.]+) member ([\d.]+) non ([\d.]+)")
LONGEST = 4096  # batch_ab's rows are about 120 characters
COLUMNS = ["int add", "int member", "int non", "str add", "str member", "str non"]


def main(path, pick):
    runs = collections.defaultdict(list)
    build = None
    try:
        f = open(path, errors="replace")
    except OSError as e:
        sys.exit(f"batch_ab_table.py: {path}: {e.strerror}")
    with f:
        while line := f.readline(LONGEST + 1):
            if len(line) > LONGEST:
                sys.exit(f"batch_ab_table.py: {path}: a line longer than {LONGEST} characters is not batch_ab's")
            m = HEAD.match(line)
            if m:
                build = m.group(1)
                continue
            m = ROW.match(line)
            if m and build:
                kind, n, kib = m.group(1), int(m.group(2)), int(m.group(3))
                runs[(kind, n, kib, build)].append([float(x) for x in m.groups()[3:]])
    print("kind, array KiB (n), rounds; then each figure as A:B=A/B, " + ("least" if pick is min else "medians") + " of ns a key")
    for kind in dict.fromkeys(k[0] for k in runs):
        print(kind)
        for n, kib in sorted({(k[1], k[2]) for k in runs if k[0] == kind}):
            a, b = runs.get((kind, n, kib, "A")), runs.get((kind, n, kib, "B"))
            if not a or not b:
                continue
            cells = []
            for c, name in enumerate(COLUMNS):
                x = pick([r[c] for r in a])
                y = pick([r[c] for r in b])
                cells.append(f"{name} {x:.2f}:{y:.2f}={x / y:.2f}")
            print(f"  {kib:5d} KiB (n={n}) r{min(len(a), len(b))}: " + "; ".join(cells))


if __name__ == "__main__":
    args = sys.argv[1:]
    best = args[:1] == ["--best"]
    if best:
        args = args[1:]
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(args[0], min if best else statistics.median)
