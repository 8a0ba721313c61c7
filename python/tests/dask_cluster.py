"""Builds filters on a LocalCluster of two worker processes and checks them
against serial builds; run by test_dask.py (Dask's worker processes import
the main script again, so this is a file with a __main__ guard).

    dask_cluster.py OUT_DIR   writes OUT_DIR/cluster.bloom and the keys it
                              holds (OUT_DIR/keys.txt), prints one JSON line
"""

import json
import pathlib
import sys

import numpy as np

import bloomlab
import bloomlab.dask


def main(out_dir):
    import dask.array as da
    import dask.bag as db
    import dask.dataframe as dd
    import pandas as pd
    from distributed import Client, LocalCluster

    report = {}
    ints = np.random.default_rng(7).integers(0, 2**64, size=200_000, dtype=np.uint64)
    words = [f"https://example.org/page/{i}" for i in range(60_000)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(
        cluster
    ) as client:
        report["workers"] = len(client.scheduler_info()["workers"])

        # A dask array of uint64 keys, 8 chunks.
        arr = da.from_array(ints, chunks=25_000)
        for kind in ("blocked", "blocked256", "classic"):
            built = bloomlab.dask.build(arr, p=0.01, kind=kind, split_every=3).compute()
            serial = bloomlab.sized(kind, n=len(ints), p=0.01)
            serial.add_many(ints)
            report[f"array_{kind}_equal"] = built == serial

        # The partitioned build: a slice of the blocks a task.
        for kind, slices in (("blocked", 2), ("blocked256", 3)):
            built = bloomlab.dask.partitioned_build(arr, p=0.01, kind=kind, slices=slices)
            serial = bloomlab.sized(kind, n=len(ints), p=0.01)
            serial.add_many(ints)
            report[f"partitioned_{kind}_equal"] = built == serial and built.items() == serial.items()

        # A bag of strings, and a dataframe column of the same strings.
        bag = db.from_sequence(words, npartitions=6)
        serial = bloomlab.sized("counting", n=len(words), p=0.01)
        serial.add_many(words)
        report["bag_counting_equal"] = bloomlab.dask.build(bag, p=0.01, kind="counting").compute() == serial
        column = dd.from_pandas(pd.DataFrame({"url": words}), npartitions=5)["url"]
        built = bloomlab.dask.build(column, p=0.01, kind="blocked").compute()
        serial = bloomlab.sized("blocked", n=len(words), p=0.01)
        serial.add_many(words)
        report["column_blocked_equal"] = built == serial
        report["partitioned_bag_equal"] = bloomlab.dask.partitioned_build(bag, p=0.01) == serial

        # Lookups on the cluster, the filter scattered once.
        absent = [f"https://example.org/other/{i}" for i in range(20_000)]
        hits = bloomlab.dask.contains(built, db.from_sequence(words + absent, npartitions=4)).compute()
        report["bag_lookups_equal"] = list(hits) == list(serial.contains_many(words + absent))
        hits = bloomlab.dask.contains(built, column).compute()
        report["column_lookups_all"] = bool(hits.all()) and len(hits) == len(words)
        probe = np.random.default_rng(8).integers(0, 2**64, size=50_000, dtype=np.uint64)
        int_filter = bloomlab.dask.build(arr, p=0.01, kind="blocked").compute()
        hits = bloomlab.dask.contains(int_filter, da.from_array(probe, chunks=12_000)).compute()
        report["array_lookups_equal"] = bool((hits == int_filter.contains_many(probe)).all())

        # For the command line: the column's filter, saved.
        out = pathlib.Path(out_dir)
        built.save(str(out / "cluster.bloom"))
        (out / "keys.txt").write_text("".join(w + "\n" for w in words[:1000] + absent[:1000]))
        report["expected"] = [bool(x) for x in serial.contains_many(words[:1000] + absent[:1000])]
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])
