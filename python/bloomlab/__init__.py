"""bloomlab: Bloom filters and their relatives, from bloomlab's C++ engine.

The filter kinds, one class each (the list below comes from the engine's
registry of kinds). The kinds that take keys have add, contains, add_many,
contains_many, bits, items, fpr, len(), ==, save/to_bytes and pickling, and
| and & where the engine defines them; the static kinds are built once from
a set (no add).

{kinds}

sized(kind, n=, p=) makes one sized as `bloomlab build --kind KIND --n N --p P`
makes it; size() and analyze() give the sizing and rates; load(path) reads a
filter file (one Guava's writeTo wrote too: load(path, funnel="long") for
longs). bloomlab.dask builds filters over Dask collections.
"""

import textwrap as _textwrap

from . import _bloomlab
from ._bloomlab import *  # noqa: F403 (every public name of the module: _bloomlab.__all__)
from ._bloomlab import __version__

__all__ = [*_bloomlab.__all__, "KINDS", "kind_of", "sized"]

# The kinds, from the engine's registry (io::kinds): the names the CLI's
# --kind spells, each kind's class, and whether it takes keys after it is
# made (the static kinds are built once from a set: no sized(), no add).
_CLASSES = {name: cls for name, cls, adds, _, _ in _bloomlab._kinds if adds}
_STATIC = {name: cls for name, cls, adds, _, _ in _bloomlab._kinds if not adds}
KINDS = tuple(_CLASSES)
if __doc__:  # (python -OO drops docstrings)
    __doc__ = __doc__.format(kinds="\n".join(
        _textwrap.fill(f"{name:11} {cls.__name__:17} {summary}", 79, initial_indent="    ", subsequent_indent=" " * 34,
                       break_on_hyphens=False)
        for name, cls, _, summary, _ in _bloomlab._kinds))


def kind_of(f):
    """The kind name of a filter object ("classic", "blocked", ...)."""
    for name, cls in (_CLASSES | _STATIC).items():
        if type(f) is cls:
            return name
    raise TypeError(f"filter: a {type(f).__name__} is not a bloomlab filter")


def sized(kind="classic", *, n, p, key=None):
    """An empty filter of `kind` for n keys at rate p, sized as `bloomlab build
    --kind KIND --n N --p P` sizes it (so the two build equal filters), each
    kind as its entry in the engine's registry says:

    {sizing}

    key: 16 bytes for a keyed filter (SipHash-2-4), or None.
    """
    return _bloomlab._sized(kind, float(n), float(p), key)


if sized.__doc__:
    sized.__doc__ = sized.__doc__.format(sizing="\n    ".join(
        _textwrap.fill(f"{name}: {sizing}", 75, subsequent_indent="        ", break_on_hyphens=False)
        for name, _, adds, _, sizing in _bloomlab._kinds if adds))
