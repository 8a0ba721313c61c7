"""Dask builds: keys a second for a blocked filter of N uint64 keys (default
20,000,000) at 1%, on a LocalCluster of 1 and of 2 worker processes (one
thread each), by OR of per-partition filters (build) and by slices
(partitioned_build), and the largest memory a worker process reached.

The keys are made on the workers (each chunk from its own seeded generator),
so no key crosses the network before the build; the time is from the call
to the filter in the client's hands, and includes moving the filters (or
slices) to it. A serial add_many of the same keys in this process is timed
beside them, and every build is checked equal to it.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/bench_dask.py [--keys N] [--chunks C]
"""

import argparse
import os
import time

import numpy as np

import bloomlab
import bloomlab.dask


def chunk_keys(block, block_info=None):
    seed = block_info[None]["chunk-location"][0]
    return np.random.default_rng(1000 + seed).integers(0, 2**64, size=block.shape[0], dtype=np.uint64)


def peak_rss_mib():
    """The largest resident size this process reached (VmHWM), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", type=int, default=20_000_000)
    ap.add_argument("--chunks", type=int, default=16)
    a = ap.parse_args()

    import dask.array as da
    from distributed import Client, LocalCluster

    n, per = a.keys, -(-a.keys // a.chunks)
    print(f"# bloomlab.dask builds, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print(f"{n:,} uint64 keys in {a.chunks} chunks, blocked filter at 1% "
          f"({bloomlab.size(n=n, p=0.01, kind='blocked')['m'] / 8 / 2**20:.1f} MiB); "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start.\n")

    # The serial build, from the same keys.
    keys = np.concatenate([chunk_keys(np.empty(min(per, n - i * per)), {None: {"chunk-location": (i,)}})
                           for i in range(a.chunks)])
    serial = bloomlab.sized("blocked", n=n, p=0.01)
    t = time.perf_counter()
    serial.add_many(keys)
    t_serial = time.perf_counter() - t
    del keys
    print("| build | workers | seconds | keys a second | largest worker RSS | equal to serial |")
    print("|---|---:|---:|---:|---:|---|")
    print(f"| serial add_many (this process) | - | {t_serial:.2f} | {n / t_serial / 1e6:.2f} M | - | - |")

    builds = (("build (OR tree)", lambda arr, w: bloomlab.dask.build(arr, p=0.01, kind="blocked").compute()),
              ("partitioned_build", lambda arr, w: bloomlab.dask.partitioned_build(
                  arr, p=0.01, kind="blocked", n=n, slices=w)))
    for workers in (1, 2):
        for name, fn in builds:
            # A fresh cluster each, so that a worker's peak memory is this build's.
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                              memory_limit=0) as cluster, Client(cluster) as client:
                arr = da.zeros(n, chunks=per, dtype=np.uint64).map_blocks(chunk_keys, dtype=np.uint64)
                base = max(client.run(peak_rss_mib).values())
                t = time.perf_counter()
                f = fn(arr, workers)
                dt = time.perf_counter() - t
                rss = max(client.run(peak_rss_mib).values())
                print(f"| {name} | {workers} | {dt:.2f} | {n / dt / 1e6:.2f} M | {rss:.0f} MiB ({base:.0f} before) "
                      f"| {f == serial} |")
                del f
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end. A worker's RSS is its peak over the whole run "
          "(a fresh cluster for each row; 'before' is the idle worker).")


if __name__ == "__main__":
    main()
