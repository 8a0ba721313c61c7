"""The Python module against Python's set and flor (python3-flor, a pure
Python Bloom filter), in one run:

  batch inserts and lookups a second on N uint64 keys (default 10,000,000)
  and on S strings (default 1,000,000); lookups are half present, half absent;
  the time of one single-key call from Python (add, contains, `in`);
  contains_many on one and on two threads (the GIL is released).

Every filter is sized for its keys at the same target rate (1%). flor is
pure Python, so it is timed on the first F keys (default 200,000) of the
same lists, in a filter sized for them, and its rate a second is
reported: its cost a key is Python code (k FNV hashes of the key), which
does not depend on how many keys there are. Keys are made before the clock starts
(for flor: their bytes, which is all it takes).

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/bench_module.py [--ints N] [--strings S] [--flor F]
"""

import argparse
import gc
import os
import platform
import sys
import threading
import time

import numpy as np

import bloomlab

try:
    import flor
except ImportError:  # python3-flor: scripts/deps.sh test
    flor = None


def best_of(runs, fn):
    """The fastest of `runs` timings of fn() (seconds), and its result."""
    best, result = float("inf"), None
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def rate(count, seconds):
    return f"{count / seconds / 1e6:8.2f} M/s"


def row(name, inserts, lookups, note=""):
    print(f"| {name:<34} | {inserts:>12} | {lookups:>12} | {note} |")


def bench_batches(label, keys, probe, flor_keys, flor_probe, p, runs):
    n = len(keys)
    print(f"\n### {label}: {n:,} keys inserted, {len(probe):,} looked up (half present), target rate {p}\n")
    print("| structure | inserts | lookups | size / measured rate |")
    print("|---|---:|---:|---|")
    for kind in ("blocked", "classic"):
        def build():
            f = bloomlab.sized(kind, n=n, p=p)
            f.add_many(keys)
            return f

        t_add, f = best_of(runs, build)
        t_look, hits = best_of(runs, lambda: f.contains_many(probe))
        absent = hits[len(probe) // 2 :]
        row(f"bloomlab {kind} add_many/contains_many", rate(n, t_add), rate(len(probe), t_look),
            f"{f.bits() / 8 / 2**20:.1f} MiB, rate {absent.mean():.4f}")
    if isinstance(keys, np.ndarray):
        py_keys, py_probe = keys.tolist(), probe.tolist()
    else:
        py_keys, py_probe = keys, probe

    def build_set():
        s = set()
        s.update(py_keys)
        return s

    t_add, s = best_of(runs, build_set)
    t_look, _ = best_of(runs, lambda: list(map(s.__contains__, py_probe)))
    size = sys.getsizeof(s) + (sum(map(sys.getsizeof, py_keys[:1000])) * n // 1000)
    row("Python set (update, map __contains__)", rate(n, t_add), rate(len(probe), t_look),
        f"{size / 2**20:.1f} MiB (table and keys), exact")
    del s, py_keys, py_probe
    if flor is not None:
        def build_flor():
            b = flor.BloomFilter(n=len(flor_keys), p=p)
            for k in flor_keys:
                b.add(k)
            return b

        t_add, b = best_of(1, build_flor)
        t_look, hits = best_of(1, lambda: [b.check(k) for k in flor_probe])
        absent = hits[len(flor_probe) // 2 :]
        row(f"flor (first {len(flor_keys):,} keys, pure Python)", rate(len(flor_keys), t_add),
            rate(len(flor_probe), t_look), f"sized for those keys: {b.M / 2**20:.2f} MiB, rate {np.mean(absent):.4f}")


def bench_single(runs):
    print("\n### Single-key calls from Python (a loop of 1,000,000 calls; time a call)\n")
    print("| call | ns a call |")
    print("|---|---:|")
    count = 1_000_000
    ints = np.random.default_rng(3).integers(0, 2**64, size=count, dtype=np.uint64).tolist()
    strs = [f"user-{i:09d}@example.org" for i in range(count)]
    f = bloomlab.sized("blocked", n=count, p=0.01)
    c = bloomlab.sized("classic", n=count, p=0.01)
    s = set(ints)
    t_loop, _ = best_of(runs, lambda: [None for _ in ints])
    cases = [
        ("empty loop (subtracted below)", lambda: [None for _ in ints]),
        ("blocked f.add(int)", lambda: [f.add(x) for x in ints]),
        ("blocked f.contains(int)", lambda: [f.contains(x) for x in ints]),
        ("blocked `x in f` (int)", lambda: [x in f for x in ints]),
        ("blocked f.contains(str)", lambda: [f.contains(x) for x in strs]),
        ("classic f.contains(str)", lambda: [c.contains(x) for x in strs]),
        ("set `x in s` (int)", lambda: [x in s for x in ints]),
    ]
    per_key_batch, _ = best_of(runs, lambda: f.contains_many(np.array(ints, dtype=np.uint64)))
    for name, fn in cases:
        t, _ = best_of(runs, fn)
        net = t if name.startswith("empty") else t - t_loop
        print(f"| {name} | {net / count * 1e9:.0f} |")
    print(f"| blocked contains_many, a key (batch of 1,000,000 incl. the array) | {per_key_batch / count * 1e9:.1f} |")
    if flor is not None:
        fl = flor.BloomFilter(n=count, p=0.01)
        bs = [x.to_bytes(8, "little") for x in ints[:100_000]]
        t, _ = best_of(1, lambda: [fl.check(x) for x in bs])
        print(f"| flor b.check(bytes) (100,000 calls) | {t / len(bs) * 1e9:.0f} |")


def bench_threads(keys, probe, runs):
    print("\n### contains_many on threads (the GIL is released while the filter works)\n")
    f = bloomlab.sized("blocked", n=len(keys), p=0.01)
    f.add_many(keys)
    t1, _ = best_of(runs, lambda: f.contains_many(probe))
    halves = np.array_split(probe, 2)

    def two():
        out = [None, None]
        ts = [threading.Thread(target=lambda i=i: out.__setitem__(i, f.contains_many(halves[i]))) for i in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return out

    t2, _ = best_of(runs, two)
    print(f"one thread: {rate(len(probe), t1)}; two threads, half each: {rate(len(probe), t2)} "
          f"({t1 / t2:.2f}x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ints", type=int, default=10_000_000)
    ap.add_argument("--strings", type=int, default=1_000_000)
    ap.add_argument("--flor", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    print(f"# bloomlab Python module, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"flor {'installed' if flor else 'missing'}; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the start; best of {a.runs} runs (flor: one).")

    rng = np.random.default_rng(1)
    keys = rng.integers(0, 2**64, size=a.ints, dtype=np.uint64)
    probe = np.concatenate([keys[: a.ints // 2], rng.integers(0, 2**64, size=a.ints - a.ints // 2, dtype=np.uint64)])
    fk = [x.to_bytes(8, "little") for x in keys[: a.flor].tolist()]
    fp = [x.to_bytes(8, "little") for x in keys[: a.flor // 2].tolist()] + [
        x.to_bytes(8, "little") for x in probe[a.ints - a.flor // 2 :].tolist()]
    bench_batches("uint64 keys (numpy array)", keys, probe, fk, fp, 0.01, a.runs)
    bench_threads(keys, probe, a.runs)
    del keys, probe, fk, fp

    words = [f"https://example.org/{i:x}/page-{i * 7919 % 100003}" for i in range(a.strings)]
    others = [f"https://example.net/{i:x}/other" for i in range(a.strings - a.strings // 2)]
    sprobe = words[: a.strings // 2] + others
    fk = [w.encode() for w in words[: a.flor]]
    fp = [w.encode() for w in words[: a.flor // 2]] + [w.encode() for w in others[: a.flor // 2]]
    bench_batches("str keys (a list)", words, sprobe, fk, fp, 0.01, a.runs)
    del words, sprobe
    bench_single(a.runs)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
