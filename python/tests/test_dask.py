"""bloomlab.dask: builds on a LocalCluster of two worker processes equal
serial builds bit for bit, and a filter built there is read by the CLI."""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import bloomlab
import bloomlab.dask

dask = pytest.importorskip("dask")  # python3-dask is a test dependency: scripts/deps.sh test
import dask.array as da  # noqa: E402
import dask.bag as db  # noqa: E402
from dask.delayed import Delayed  # noqa: E402


def test_cluster_builds_equal_serial_builds_and_the_cli_reads_them(cli, tmp_path):
    script = pathlib.Path(__file__).with_name("dask_cluster.py")
    # The workers import bloomlab from where this process found it.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(pathlib.Path(bloomlab.__file__).resolve().parents[1])] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    r = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=600,
                       env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads(r.stdout.strip().splitlines()[-1])
    assert report.pop("workers") == 2
    expected = report.pop("expected")
    assert report == {k: True for k in report}, report
    keys = (tmp_path / "keys.txt").read_text().splitlines()
    q = subprocess.run([cli, "query", str(tmp_path / "cluster.bloom"), "-"], input="\n".join(keys) + "\n",
                       capture_output=True, text=True, timeout=120)
    assert q.returncode in (0, 1), q.stderr
    answers = [line.split("\t", 1)[0] == "maybe" for line in q.stdout.splitlines()]
    assert answers == expected
    assert all(answers[:1000])


def test_local_scheduler_build_and_errors():
    with dask.config.set(scheduler="synchronous"):
        xs = np.arange(1, 5001, dtype=np.uint64)
        built = bloomlab.dask.build(da.from_array(xs, chunks=700), p=0.02, kind="classic").compute()
        serial = bloomlab.sized("classic", n=5000, p=0.02)
        serial.add_many(xs)
        assert built == serial
        # n defaults to the length; the sizing follows it.
        assert built.bits() == bloomlab.size(n=5000, p=0.02)["m"]
        assert bloomlab.dask.build(db.from_sequence(["a", "b"], npartitions=2), p=0.1, n=100).compute().bits() == \
            bloomlab.size(n=100, p=0.1, kind="blocked")["m"]
        for slices in (1, 2, 5):
            part = bloomlab.dask.partitioned_build(da.from_array(xs, chunks=700), p=0.02, kind="blocked256",
                                                   slices=slices)
            serial = bloomlab.sized("blocked256", n=5000, p=0.02)
            serial.add_many(xs)
            assert part.items() == serial.items() == len(xs)
            assert part == serial
        with pytest.raises(ValueError, match="kind: 'classic'"):
            bloomlab.dask.partitioned_build(da.from_array(xs, chunks=700), p=0.01, kind="classic")
        with pytest.raises(ValueError, match="kind: 'cuckoo' cannot be combined"):
            bloomlab.dask.build(da.from_array(xs, chunks=700), p=0.01, kind="cuckoo").compute()
        with pytest.raises(ValueError, match="out of range"):
            bloomlab.dask.build(da.from_array(np.array([-1, 2]), chunks=1), p=0.01).compute()
        with pytest.raises(ValueError, match="2 dimensions"):
            bloomlab.dask.build(da.zeros((2, 2), dtype=np.uint64), p=0.01).compute()
        with pytest.raises(TypeError, match="allowed: a dask bag"):
            bloomlab.dask.build([1, 2, 3], p=0.01).compute()


def test_every_kind_with_a_union_builds_as_a_serial_build():
    # COMBINABLE is read from the module's classes (those with |): the kinds
    # the registry says combine and take keys after they are made.
    assert bloomlab.dask.COMBINABLE == tuple(
        name for name, cls, adds, *_ in bloomlab._bloomlab._kinds if adds and name not in ("cuckoo", "scalable"))
    keys = [f"user-{i}" for i in range(2000)]
    with dask.config.set(scheduler="synchronous"):
        for kind in bloomlab.dask.COMBINABLE:
            built = bloomlab.dask.build(db.from_sequence(keys, npartitions=5), p=0.01, kind=kind).compute()
            serial = bloomlab.sized(kind, n=2000, p=0.01)
            serial.add_many(keys)
            assert type(built) is type(serial) and built == serial, kind
            assert built.contains_many(keys).all(), kind


def test_build_is_lazy_and_counts_n_only_at_compute():
    calls = []

    def seen(x):
        calls.append(x)
        return x

    with dask.config.set(scheduler="synchronous"):
        bag = db.from_sequence([f"k{i}" for i in range(300)], npartitions=3).map(seen)
        plan = bloomlab.dask.build(bag, p=0.01, kind="blocked")
        assert isinstance(plan, Delayed)
        assert calls == []  # nothing read yet: not even the length
        built = plan.compute()
        serial = bloomlab.sized("blocked", n=300, p=0.01)
        serial.add_many([f"k{i}" for i in range(300)])
        assert built == serial
        # The length and the filters are one graph: each key is read once.
        assert len(calls) == 300


def test_a_missing_key_is_named_by_partition_and_row():
    pd = pytest.importorskip("pandas")
    import dask.dataframe as dd

    with dask.config.set(scheduler="synchronous"):
        column = dd.from_pandas(pd.Series(["a", "b", "c", None, "e", "f"], index=range(10, 16), name="url"),
                                npartitions=2)
        with pytest.raises(ValueError, match=r"partition 1, row 13: a missing value \(None\) is not a key"):
            bloomlab.dask.build(column, p=0.01, n=6).compute()
        # A bag's rows are counted within the partition: ["a", "b", "c"], ["d", nan].
        bag = db.from_sequence(["a", "b", "c", "d", float("nan")], npartitions=2)
        with pytest.raises(ValueError, match=r"partition 1, row 1: a missing value \(nan\)"):
            bloomlab.dask.build(bag, p=0.01, n=5).compute()
