"""Filters over Dask collections: built per partition and combined by OR.

    import bloomlab.dask
    f = bloomlab.dask.build(bag_or_array_or_series, p=0.01, kind="blocked").compute()
    hits = bloomlab.dask.contains(f, other_collection)   # same shape, bool; lazy too

build() makes one empty filter per partition, every one with the same
parameters (sized for the whole collection's n at p, as bloomlab.sized()
sizes it), adds the partition's keys as one batch, then ORs the filters
together in a tree (split_every at a time), so no worker ever holds more
than split_every + 1 filters. The OR of filters of the same parameters is,
bit for bit, the filter of all the keys: the result equals a serial build.
Only kinds whose union is exact, those with |, can be built this way
(COMBINABLE: classic, counting with its counters added, the blocked and
cache-line kinds, and the Parquet, RocksDB and Guava filters).

Keys: a partition is a numpy uint64 array (dask.array chunks, or a column
of unsigned integers) read in place, a column of non-negative integers
(converted to uint64), or a list of str/bytes (dask.bag partitions, object
columns).

It runs on whatever scheduler is active: a distributed Client (a
LocalCluster or a real cluster) or Dask's local schedulers.
"""

import numpy as np

import dask
import dask.array as da
import dask.bag as db

import bloomlab

# Kinds whose OR is the filter of the union: those whose class has |, as
# the engine's registry lists them (cuckoo and scalable filters have no
# exact union; the static kinds take no keys after they are built).
COMBINABLE = tuple(name for name, cls, adds, *_ in bloomlab._bloomlab._kinds if adds and "__or__" in vars(cls))


def _partitions(collection):
    """The collection's partitions as delayed objects, and a label for errors."""
    if isinstance(collection, db.Bag):
        return list(collection.to_delayed()), "bag"
    if isinstance(collection, da.Array):
        if collection.ndim != 1:
            raise ValueError(f"collection: an array of {collection.ndim} dimensions (allowed: one dimension)")
        return list(collection.to_delayed().ravel()), "array"
    try:
        import dask.dataframe as dd
    except ImportError:  # pragma: no cover - dask.dataframe needs pandas
        dd = None
    if dd is not None and isinstance(collection, dd.Series):
        return list(collection.to_delayed()), "series"
    if dd is not None and isinstance(collection, dd.DataFrame):
        raise TypeError("collection: a dataframe; pass one column (df['name'])")
    raise TypeError(
        f"collection: a {type(collection).__name__} (allowed: a dask bag, a one-dimensional dask array, or a dataframe column)"
    )


def _missing(v):
    """None, pandas' NA or NaT, or a float NaN: a missing value, not a key."""
    if v is None or (isinstance(v, float) and v != v):
        return True
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - dask.dataframe needs pandas
        return False
    return v is pd.NA or v is pd.NaT


def _check_present(values, part, index):
    """Refuses a partition holding a missing value, naming the partition and the row."""
    for i, v in enumerate(values):
        if _missing(v):
            row = part.index[i] if hasattr(part, "iloc") else i  # a pandas Series: its index label
            where = f"partition {index}, row {row!r}" if index is not None else f"row {row!r}"
            raise ValueError(f"{where}: a missing value ({v!r}) is not a key (drop or fill missing values first)")


def _keys(part, index=None):
    """A partition's keys in a form add_many/contains_many take; index: the
    partition's number, for messages."""
    if isinstance(part, np.ndarray):
        values = part
    elif hasattr(part, "to_numpy"):  # a pandas Series
        values = part.to_numpy()
    else:
        values = list(part)
        _check_present(values, part, index)
        return values
    if values.dtype == np.uint64:
        return values
    if values.dtype.kind in "iu":
        if values.size and values.min() < 0:
            raise ValueError(f"keys: {values.min()} is out of range (integer keys are 0 to 2^64 - 1)")
        return values.astype(np.uint64)
    if values.dtype.kind == "b" or values.dtype.kind == "f":
        raise TypeError(f"keys: a column of dtype {values.dtype} (allowed: unsigned or non-negative integers, str, bytes)")
    values = values.tolist()
    _check_present(values, part, index)
    return values


def _length(collection, kind_label, lazy=False):
    """The collection's length: an int when it is known without reading the
    data (an array's shape), else one pass over it, now or (lazy) as a dask
    object that a task takes as an argument."""
    if kind_label == "array":
        n = collection.shape[0]
        if n == n:  # known (not NaN)
            return int(n)
    counted = collection.count() if kind_label == "bag" else collection.size
    return counted if lazy else int(counted.compute())


def _partition_filter(part, index, kind, n, p, key):
    f = bloomlab.sized(kind, n=max(1, int(n)), p=p, key=key)
    f.add_many(_keys(part, index))
    return f


def _union(*filters):
    # A new filter: the inputs may be held elsewhere (a worker's memory, a retry).
    out = filters[0] | filters[1] if len(filters) > 1 else filters[0]
    for f in filters[2:]:
        out |= f
    return out


def build(collection, p, kind="blocked", n=None, *, key=None, split_every=8):
    """One filter of every key in `collection` (a dask bag, a one-dimensional
    dask array, or a dataframe column), at target rate p for n keys. Lazy,
    as contains() is: a dask Delayed; .compute() gives the filter.

    n: the keys the filter is planned for. By default the collection's
    length (all keys, repeats included: an upper bound on the distinct keys,
    so the filter is never smaller than needed; pass the distinct count
    when it is known and much smaller). When the length is not known from
    the collection's shape (a bag, a column, an array of unknown chunks),
    counting it is one more pass at compute(): the counts of every
    partition come before any partition's filter, in the same graph, so
    each partition is read once but held until its filter is made. kind: one of
    COMBINABLE. key: 16 bytes for a keyed filter.

    One filter a partition, each sized by bloomlab.sized(kind, n=n, p=p),
    combined by OR in a tree of fan-in split_every; equal bit for bit to a
    serial build of the same keys. items() of the result is the sum of the
    partitions' counts (a key in two partitions counts twice).
    """
    if kind not in COMBINABLE:
        raise ValueError(f"kind: {kind!r} cannot be combined by OR (allowed: {', '.join(COMBINABLE)})")
    if not (0 < p < 1):
        raise ValueError(f"p: {p} is out of range (0 < p < 1)")
    if split_every < 2:
        raise ValueError(f"split_every: {split_every} is out of range (2 or more)")
    parts, label = _partitions(collection)
    if n is None:
        n = _length(collection, label, lazy=True)
    if isinstance(n, (int, float)):
        if not (n >= 1):
            raise ValueError(f"n: {n} is out of range (1 or more)")
        bloomlab.size(n=float(n), p=float(p), kind=kind)  # refuses bad n, p early
    make = dask.delayed(_partition_filter, pure=True)
    level = [make(part, i, kind, n, float(p), key) for i, part in enumerate(parts)]
    if not level:  # no partitions: the empty filter of the plan
        return dask.delayed(_partition_filter, pure=True)([], None, kind, n, float(p), key)
    union = dask.delayed(_union, pure=True)
    while len(level) > 1:
        level = [union(*level[i : i + split_every]) for i in range(0, len(level), split_every)]
    return level[0]


_BLOCKED = {"blocked": bloomlab.BlockedFilter, "blocked256": bloomlab.BlockedFilter256}


def _route(part, index, kind, m, slices, key):
    """A partition's hashes, split by the slice of blocks they fall in."""
    cls = _BLOCKED[kind]
    hs = cls(cls.block_bits, key=key)._hashes(_keys(part, index))  # the hash does not depend on m
    which = cls._slices_of(hs, m, slices)
    # A stable sort keeps each slice's hashes in the partition's order.
    order = np.argsort(which, kind="stable")
    bounds = np.searchsorted(which[order], np.arange(slices + 1))
    routed = hs[order]
    return [routed[bounds[s] : bounds[s + 1]] for s in range(slices)]


def _slice(kind, m, slices, s, *groups):
    """A slice's words, and how many keys it took (items() counts every key)."""
    words, _fresh = _BLOCKED[kind]._build_slice(m, slices, s, list(groups))
    return words, sum(len(g) for g in groups)


def partitioned_build(collection, p, kind="blocked", n=None, *, slices=None, key=None):
    """A blocked filter built in slices: for filters bigger than a worker
    should hold. Each partition's keys are hashed and routed by the block
    their hash falls in; slice s (blocks floor(sB/S) to floor((s+1)B/S) - 1
    of the filter's B blocks) is built by one task from the hashes routed to
    it, so a worker holds m/S bits of filter, not m. The slices, laid end to
    end on the client, are the filter: bit for bit a serial build's, and
    items() counts every key added, as a serial add_many does.

    slices: S, by default the number of workers of the active distributed
    Client (else 2). n and key as in build(); kind: blocked or blocked256.
    Network: every key's 8-byte hash moves once (partition to slice task),
    and the filter's m bits once (slices to the client).
    """
    if kind not in _BLOCKED:
        raise ValueError(f"kind: {kind!r} (allowed for a partitioned build: {', '.join(_BLOCKED)})")
    if not (0 < p < 1):
        raise ValueError(f"p: {p} is out of range (0 < p < 1)")
    parts, label = _partitions(collection)
    if n is None:
        n = max(1, _length(collection, label))
    m = bloomlab.size(n=float(n), p=float(p), kind=kind)["m"]
    if slices is None:
        try:
            from distributed import get_client

            slices = max(1, len(get_client().scheduler_info()["workers"]))
        except (ImportError, ValueError):
            slices = 2
    blocks = m // _BLOCKED[kind].block_bits
    if not (1 <= slices <= blocks):
        raise ValueError(f"slices: {slices} is out of range (1 to the filter's {blocks} blocks)")
    route = dask.delayed(_route, pure=True, nout=slices)
    routed = [route(part, i, kind, m, slices, key) for i, part in enumerate(parts)]
    build_slice = dask.delayed(_slice, pure=True)
    tasks = [build_slice(kind, m, slices, s, *[r[s] for r in routed]) for s in range(slices)]
    built = dask.compute(*tasks)
    return _BLOCKED[kind]._from_slices(m, [w for w, _ in built], sum(int(f) for _, f in built), key=key)


def _lookup(f, part, index):
    return f.contains_many(_keys(part, index))


def _shared(f):
    """The filter where every task can reach it: scattered once to every
    worker of an active distributed Client (broadcast), else one delayed
    value the local scheduler shares."""
    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        return dask.delayed(f, pure=True)
    return client.scatter(f, broadcast=True)


def contains(f, collection):
    """contains() of every key of `collection`, as a collection of the same
    partitions: a dask array of bools for an array, a bag of bools for a
    bag, a bool Series for a column. Lazy:
    call .compute(). The filter is sent to the workers once."""
    parts, label = _partitions(collection)
    shared = _shared(f)
    look = dask.delayed(_lookup, pure=True)
    results = [look(shared, part, i) for i, part in enumerate(parts)]
    if label == "array":
        chunks = collection.chunks[0]
        return da.concatenate(
            [da.from_delayed(r, shape=(c,), dtype=bool) for r, c in zip(results, chunks)]
        ) if results else da.zeros((0,), dtype=bool)
    if label == "bag":
        return db.from_delayed(results)
    import dask.dataframe as dd
    import pandas as pd

    def as_series(values, part):
        return pd.Series(values, index=part.index, name=part.name)

    wrap = dask.delayed(as_series, pure=True)
    meta = pd.Series([], dtype=bool, name=collection.name)
    return dd.from_delayed([wrap(r, part) for r, part in zip(results, parts)], meta=meta,
                           divisions=collection.divisions)
