"""bloomlab: Bloom filters and their relatives, from bloomlab's C++ engine.

Filter kinds (each with add, contains, add_many, contains_many, bits, items,
fpr, len(), ==, save/to_bytes and pickling; | and & where the engine defines them):

    BloomFilter(m, k)             the classic filter
    CountingFilter(m, k, width)   counters: remove()
    BlockedFilter(m)              one 512-bit block a key (BlockedFilter256: 256-bit blocks)
    CacheLineFilter(m, k)         k bits anywhere in one 512-bit block (RocksDB's layout)
    ParquetFilter(nbytes)         Parquet's split-block filter, bit for bit (bitset(), from_bitset())
    RocksDBFilter(nbytes, k)      RocksDB's FastLocalBloom, bit for bit (for_bits_per_key(), block(), from_block())
    GuavaFilter(m, k, funnel)     Guava's BloomFilter, bit for bit (to_bytes(format="guava"))
    CuckooFilter(buckets, fingerprint_bits)   fingerprints: remove()
    ScalableFilter(n0, p0)        grows in classic stages

and the static kinds, built once from a set (contains, contains_many, bits,
items, fpr, ==, pickling, save, to_bytes; no add):

    Fuse8Filter(keys), Fuse16Filter(keys), Xor8Filter(keys)

sized(kind, n=, p=) makes one sized as `bloomlab build --kind KIND --n N --p P`
makes it; size() and analyze() give the sizing and rates; load(path) reads a
filter file (one Guava's writeTo wrote too: load(path, funnel="long") for
longs). bloomlab.dask builds filters over Dask collections.
"""

from . import _bloomlab
from ._bloomlab import (
    BlockedFilter,
    BlockedFilter256,
    BloomFilter,
    CacheLineFilter,
    CountingFilter,
    CuckooFilter,
    FormatError,
    Fuse8Filter,
    GuavaFilter,
    ParquetFilter,
    RocksDBFilter,
    Fuse16Filter,
    ScalableFilter,
    WriteError,
    Xor8Filter,
    analyze,
    bits_per_item,
    fpr_approx,
    fpr_exact,
    fpr_fill,
    fpr_split_block,
    from_bytes,
    load,
    max_k,
    size,
    __version__,
)

__all__ = [
    "__version__",
    "BlockedFilter",
    "BlockedFilter256",
    "BloomFilter",
    "CacheLineFilter",
    "CountingFilter",
    "CuckooFilter",
    "FormatError",
    "Fuse8Filter",
    "Fuse16Filter",
    "GuavaFilter",
    "ParquetFilter",
    "RocksDBFilter",
    "ScalableFilter",
    "WriteError",
    "Xor8Filter",
    "KINDS",
    "analyze",
    "bits_per_item",
    "fpr_approx",
    "fpr_exact",
    "fpr_fill",
    "fpr_split_block",
    "from_bytes",
    "kind_of",
    "load",
    "max_k",
    "size",
    "sized",
]

# The kinds, from the engine's registry (io::kinds): the names the CLI's
# --kind spells, each kind's class, and whether it takes keys after it is
# made (the static kinds are built once from a set: no sized(), no add).
_CLASSES = {name: cls for name, cls, adds in _bloomlab._kinds if adds}
_STATIC = {name: cls for name, cls, adds in _bloomlab._kinds if not adds}
KINDS = tuple(_CLASSES)


def kind_of(f):
    """The kind name of a filter object ("classic", "blocked", ...)."""
    for name, cls in (_CLASSES | _STATIC).items():
        if type(f) is cls:
            return name
    raise TypeError(f"filter: a {type(f).__name__} is not a bloomlab filter")


def sized(kind="classic", *, n, p, key=None):
    """An empty filter of `kind` for n keys at rate p, sized as `bloomlab build
    --kind KIND --n N --p P` sizes it (so the two build equal filters):

    classic, counting: m = ceil(n * -ln(p) / (ln 2)^2), k the best whole k;
    blocked, blocked256: the fewest blocks whose split-block rate
        sum_i Pois(i; nB/m) (1 - (1 - 1/w)^i)^8 is at most p;
    cacheline: the fewest 512-bit blocks that reach p at their best k;
    rocksdb: RocksDB's own sizing (NewBloomFilterPolicy) at the least bits a
        key, in thousandths, whose k from RocksDB's table reaches p;
    cuckoo: f = ceil(log2(8 / p)) fingerprint bits, the fewest power-of-two
        buckets that hold n at 95% load;
    scalable: a first stage for n keys at p (it grows past n);
    parquet: Arrow's sizing (a power of two);
    guava: as Guava's BloomFilter.create, (long)(-n ln p / (ln 2)^2) bits up
        to whole 64-bit longs, k = round(bits / n * ln 2).

    key: 16 bytes for a keyed filter (SipHash-2-4), or None.
    """
    return _bloomlab._sized(kind, float(n), float(p), key)
