"""Writes the package's _bloomlab.pyi at build time (python/CMakeLists.txt).

    python3 stubs.py SOURCE.pyi OUTPUT.pyi    (the built package on PYTHONPATH)

SOURCE is the typing written by hand (python/bloomlab/_bloomlab.pyi). At its
line "# @kinds" go a class for each kind the module made from the registry
alone (bind_sized in module.cpp: a kind with no class of its own there) and
AnyFilter, the union of every kind's class, in the registry's order. So a new
kind of that shape needs no line of typing; one with a class of its own has
its typing in SOURCE.

A generic class's members are those the module gave it, each typed by MEMBERS
below; its __init__ is read from the signature pybind11 wrote. A member with
no line in MEMBERS stops the build, naming it.
"""

import ast
import os
import re
import sys

MARK = "# @kinds"

# The typing of each member bind_common gives, in the order it is written.
MEMBERS = {
    "block_bits": ["block_bits: int"],
    "add": ["def add(self, key: Key) -> None: ..."],
    "contains": ["def contains(self, key: Key) -> bool: ..."],
    "__contains__": ["def __contains__(self, key: Key) -> bool: ..."],
    "add_many": ["def add_many(self, keys: Keys) -> None: ..."],
    "contains_many": ["def contains_many(self, keys: Keys) -> npt.NDArray[np.bool_]: ..."],
    "bits": ["def bits(self) -> int: ..."],
    "items": ["def items(self) -> int: ..."],
    "__len__": ["def __len__(self) -> int: ..."],
    "fpr": ["def fpr(self) -> float: ..."],
    "to_bytes": ['def to_bytes(self, *, format: str = "bloomlab") -> bytes: ...'],
    "save": ['def save(self, path: str, *, format: str = "bloomlab") -> None: ...'],
    "__eq__": ["def __eq__(self, other: object) -> bool: ..."],
    "__copy__": ["def __copy__(self) -> Self: ..."],
    "__deepcopy__": ["def __deepcopy__(self, memo: Any) -> Self: ..."],
    "keyed": ["@property", "def keyed(self) -> bool: ..."],
    "key_type": ["@property", "def key_type(self) -> KeyType: ..."],
    "__or__": ["def __or__(self, other: Self) -> Self: ..."],
    "__and__": ["def __and__(self, other: Self) -> Self: ..."],
    "__ior__": ["def __ior__(self, other: Self) -> Self: ..."],
    "__iand__": ["def __iand__(self, other: Self) -> Self: ..."],
    "clear": ["def clear(self) -> None: ..."],
    "m": ["@property", "def m(self) -> int: ..."],
    "k": ["@property", "def k(self) -> int: ..."],
    "blocks": ["@property", "def blocks(self) -> int: ..."],
    "bits_set": ["def bits_set(self) -> int: ..."],
    "estimate_n": ["def estimate_n(self) -> float: ..."],
    "estimate_n_se": ["def estimate_n_se(self) -> float: ..."],
}
# What every pybind11 class has, or needs no typing: pickling, hashing, repr.
UNTYPED = {"__doc__", "__module__", "__init__", "__repr__", "__hash__", "__getstate__", "__setstate__", "__dict__",
           "__weakref__"}


def init_line(cls):
    """def __init__(...) from pybind11's first line of the constructor's doc."""
    first = cls.__init__.__doc__.strip().splitlines()[0]
    found = re.fullmatch(r"__init__\(self: [\w.]+(?:, (.*))?\) -> None", first)
    if not found:
        sys.exit(f"stubs.py: {cls.__name__}.__init__: a signature not read here: {first!r}")
    params = re.sub(r"Optional\[([^\[\]]+)\]", r"\1 | None", found.group(1) or "")
    return f"def __init__(self{', ' + params if params else ''}) -> None: ..."


def class_stub(cls):
    have = set(vars(cls)) - UNTYPED
    unknown = sorted(have - set(MEMBERS))
    if unknown:
        sys.exit(f"stubs.py: {cls.__name__}: no typing for {', '.join(unknown)} (add it to MEMBERS)")
    lines = [f"class {cls.__name__}:"]
    body = [line for name, typed in MEMBERS.items() if name in have for line in typed]
    # block_bits first, then the constructor, as the classes written by hand are.
    head = body[:1] if body[:1] == MEMBERS["block_bits"] else []
    for line in head + [init_line(cls)] + body[len(head):]:
        lines.append("    " + line)
    return "\n".join(lines)


def main(source, output):
    # The built package, from PYTHONPATH: not the source folder beside this
    # script (the first entry of sys.path), which has no compiled module.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    import bloomlab._bloomlab as core

    text = open(source, encoding="utf-8").read()
    if text.count(MARK + "\n") != 1:
        sys.exit(f"stubs.py: {source}: no line '{MARK}' (or more than one) to write the kinds at")
    written = {n.name for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}
    classes = [cls for _, cls, _, _, _ in core._kinds]
    parts = [class_stub(cls) + "\n" for cls in classes if cls.__name__ not in written]
    names = [cls.__name__ for cls in classes]
    union = "AnyFilter = Union[\n" + "".join(f"    {name},\n" for name in names) + "]"
    text = text.replace(MARK + "\n", "\n".join(parts + [union]) + "\n")
    with open(output, "w", encoding="utf-8") as out:
        out.write(text)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python3 stubs.py SOURCE.pyi OUTPUT.pyi")
    main(sys.argv[1], sys.argv[2])
