"""Type stubs of bloomlab.dask (see docs/python.md)."""

from typing import Any

from dask.delayed import Delayed

from ._bloomlab import AnyFilter

COMBINABLE: tuple[str, ...]

def build(
    collection: Any, p: float, kind: str = "blocked", n: int | None = None, *, key: bytes | None = None, split_every: int = 8
) -> Delayed: ...  # .compute() gives the filter
def partitioned_build(
    collection: Any, p: float, kind: str = "blocked", n: int | None = None, *, slices: int | None = None,
    key: bytes | None = None
) -> AnyFilter: ...
def contains(f: AnyFilter, collection: Any) -> Any: ...
