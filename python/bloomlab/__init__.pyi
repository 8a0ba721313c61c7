"""Type stubs of the bloomlab package (see docs/python.md)."""

# Every public name _bloomlab.pyi declares (a new kind's class too), and
# __version__, which a star import leaves out; AnyFilter is named for the
# signatures below.
from ._bloomlab import *
from ._bloomlab import AnyFilter as AnyFilter, __version__ as __version__

KINDS: tuple[str, ...]

def kind_of(f: AnyFilter) -> str: ...
def sized(kind: str = "classic", *, n: float, p: float, key: bytes | None = None) -> AnyFilter: ...
