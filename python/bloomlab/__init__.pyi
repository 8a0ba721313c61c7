"""Type stubs of the bloomlab package (see docs/python.md)."""

from ._bloomlab import (
    AnyFilter as AnyFilter,
    BlockedFilter as BlockedFilter,
    BlockedFilter256 as BlockedFilter256,
    BloomFilter as BloomFilter,
    CacheLineFilter as CacheLineFilter,
    CountingFilter as CountingFilter,
    CuckooFilter as CuckooFilter,
    FormatError as FormatError,
    Fuse8Filter as Fuse8Filter,
    Fuse16Filter as Fuse16Filter,
    GuavaFilter as GuavaFilter,
    ParquetFilter as ParquetFilter,
    RocksDBFilter as RocksDBFilter,
    ScalableFilter as ScalableFilter,
    WriteError as WriteError,
    Xor8Filter as Xor8Filter,
    analyze as analyze,
    bits_per_item as bits_per_item,
    fpr_approx as fpr_approx,
    fpr_exact as fpr_exact,
    fpr_fill as fpr_fill,
    fpr_split_block as fpr_split_block,
    from_bytes as from_bytes,
    load as load,
    max_k as max_k,
    __version__ as __version__,
    size as size,
)

KINDS: tuple[str, ...]

def kind_of(f: AnyFilter) -> str: ...
def sized(kind: str = "classic", *, n: float, p: float, key: bytes | None = None) -> AnyFilter: ...
