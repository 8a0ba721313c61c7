"""The module's filters: verbs, batches, keys, errors, combining, pickling."""

import copy
import math
import pickle
import threading

import numpy as np
import pytest

import bloomlab

KINDS = bloomlab.KINDS


def make(kind, n=2000, p=0.01):
    return bloomlab.sized(kind, n=n, p=p)


def words(count, prefix="key"):
    return [f"{prefix}-{i}" for i in range(count)]


def ints(count, seed):
    return np.random.default_rng(seed).integers(0, 2**64, size=count, dtype=np.uint64)


@pytest.mark.parametrize("kind", KINDS)
def test_no_false_negatives_strings_bytes_ints(kind):
    f = make(kind, n=3000)
    keys = words(1000)
    f.add_many(keys)
    f.add_many([k.encode() for k in words(1000, "bytes")])
    f.add_many(ints(1000, seed=1))
    assert f.contains_many(keys).all()
    assert f.contains_many([k.encode() for k in words(1000, "bytes")]).all()
    assert f.contains_many(ints(1000, seed=1)).all()
    assert all(k in f for k in keys)
    assert all(f.contains(int(x)) for x in ints(1000, seed=1))


@pytest.mark.parametrize("kind", KINDS)
def test_batch_equals_single_calls(kind):
    keys = words(1500) + words(200)  # repeats too
    one, many = make(kind), make(kind)
    singles = [one.add(k) for k in keys]
    batched = many.add_many(keys)
    if singles[0] is None:  # a kind whose add cannot fail returns nothing, one key or many
        assert singles == [None] * len(keys) and batched is None
    else:  # one that can fail (a cuckoo table fills) says what it stored
        assert all(singles) and batched == len(keys)
    assert one == many
    assert one.items() == many.items()
    xs = ints(1500, seed=2)
    for x in xs:
        one.add(int(x))
    many.add_many(xs)
    assert one == many
    probe = words(3000, "probe")
    assert list(one.contains_many(probe)) == [one.contains(k) for k in probe]
    probe_ints = ints(3000, seed=3)
    assert list(one.contains_many(probe_ints)) == [one.contains(int(x)) for x in probe_ints]


@pytest.mark.parametrize("kind", KINDS)
def test_equality_with_another_type_is_false_not_an_error(kind):
    f = make(kind)
    # Python asks the other side, then falls back to identity: never an exception.
    assert (f == "x") is False
    assert (f != "x") is True
    assert (f == None) is False  # noqa: E711
    assert f != make(kind, n=500)


@pytest.mark.parametrize("kind", ["classic", "counting", "blocked", "blocked256", "cacheline", "scalable"])
def test_add_returns_nothing_where_it_cannot_fail(kind):
    f = make(kind)
    assert f.add("alpha") is None
    assert f.add("alpha") is None
    assert f.add_many(["alpha", "beta", "beta"]) is None
    # items() counts every key added, a repeat too (the bits cannot tell),
    # except the scalable filter's, which skips a key that already reads present.
    assert f.items() == (2 if kind == "scalable" else 5)
    assert "alpha" in f and "beta" in f


def test_a_full_cuckoo_filter_says_so():
    f = bloomlab.CuckooFilter(1, 8, max_kicks=10)  # one bucket of 4 slots
    stored = [f.add(f"k{i}") for i in range(6)]
    assert stored[:4] == [True] * 4 and stored[4:] == [False, False]
    assert f.items() == 4
    g = bloomlab.CuckooFilter(1, 8, max_kicks=10)
    assert g.add_many([f"k{i}" for i in range(6)]) == 4


def test_keys_str_is_utf8_and_ints_are_le_bytes():
    f = bloomlab.BloomFilter(10007, 7)
    f.add("héllo")
    assert "héllo".encode() in f
    f.add(0x0102030405060708)
    assert bytes([8, 7, 6, 5, 4, 3, 2, 1]) in f
    f.add(np.uint64(2**64 - 1))
    assert b"\xff" * 8 in f


def test_arrays_are_read_in_place_or_copied_when_strided():
    f = bloomlab.BlockedFilter(1 << 16)
    xs = ints(4000, seed=4)
    f.add_many(xs[::2])  # not contiguous: copied, same keys
    got = f.contains_many(xs[::2])
    assert got.dtype == np.bool_ and got.shape == (2000,) and got.all()
    assert f.contains_many(np.array([], dtype=np.uint64)).shape == (0,)


def test_bad_keys_are_refused_by_name():
    f = bloomlab.BloomFilter(1000, 3)
    with pytest.raises(ValueError, match=r"key: -1 is out of range \(0 to 2\^64 - 1\)"):
        f.add(-1)
    with pytest.raises(ValueError, match="out of range"):
        f.add(2**64)
    with pytest.raises(TypeError, match="a float is not a key"):
        f.add(1.5)
    with pytest.raises(TypeError, match="dtype float64"):
        f.add_many(np.arange(10, dtype=np.float64))
    with pytest.raises(ValueError, match=r"keys\[3\]: -2 is negative"):
        f.add_many(np.array([5, 6, 7, -2, 9], dtype=np.int64))
    assert f.items() == 0  # nothing was added
    with pytest.raises(ValueError, match="2 dimensions"):
        f.contains_many(np.zeros((2, 2), dtype=np.uint64))
    with pytest.raises(TypeError, match="mixes integer and str/bytes"):
        f.add_many(["a", 1])
    with pytest.raises(TypeError, match="single str"):
        f.add_many("abc")
    with pytest.raises(TypeError, match="not a batch"):
        f.add_many(5)


def test_bad_parameters_are_refused_by_name():
    # Numbers in messages read as given: 1e-300, not 0.000000.
    with pytest.raises(ValueError, match=r"p: 1e-300 is out of reach"):
        bloomlab.size(n=1e18, p=1e-300, kind="blocked")
    with pytest.raises(ValueError, match=r"needs 8589934592 buckets \(allowed: at most 4294967296\)"):
        bloomlab.size(n=2e10, p=0.01, kind="cuckoo")
    with pytest.raises(ValueError, match=r"p: 0.01 is out of reach for n 1.2e\+11 as a counting filter: it needs m ="):
        bloomlab.size(n=1.2e11, p=0.01, kind="counting")
    with pytest.raises(ValueError, match=r"n: 0 is out of range \(1 to 1e\+18\)"):
        bloomlab.size(n=0, p=0.01)
    with pytest.raises(ValueError, match=r"m: 0 is out of range \(1 to 1099511627776\)"):
        bloomlab.BloomFilter(0, 7)
    with pytest.raises(ValueError, match=r"m: -1 is out of range \(1 to 1099511627776\)"):
        bloomlab.BlockedFilter(-1)
    with pytest.raises(ValueError, match=r"k: 65 is out of range \(1 to 64\)"):
        bloomlab.BloomFilter(100, 65)
    with pytest.raises(ValueError, match=r"width: 9 is out of range \(1 to 8\)"):
        bloomlab.CountingFilter(100, 3, 9)
    with pytest.raises(ValueError, match=r"fingerprint_bits: 2 is out of range \(4 to 32\)"):
        bloomlab.CuckooFilter(4, 2)
    with pytest.raises(TypeError, match="m: a float is not a whole number"):
        bloomlab.BloomFilter(1000.5, 7)
    with pytest.raises(ValueError, match="3 buckets is not a power of two"):
        bloomlab.CuckooFilter(3)
    with pytest.raises(ValueError, match=r"p0 = .* is out of range"):
        bloomlab.ScalableFilter(p0=1.5)
    with pytest.raises(ValueError, match="exactly 16 bytes"):
        bloomlab.BlockedFilter(1000, key=b"short")
    with pytest.raises(ValueError, match=r"p: 2 is out of range \(0 < p < 1\)"):
        bloomlab.size(n=10, p=2.0)
    with pytest.raises(ValueError, match="kind: 'bogus'"):
        bloomlab.sized("bogus", n=10, p=0.1)


@pytest.mark.parametrize(
    "make",
    [
        lambda m: bloomlab.BloomFilter(m, 7),
        lambda m: bloomlab.CountingFilter(m, 7),
        lambda m: bloomlab.BlockedFilter(m),
        lambda m: bloomlab.BlockedFilter256(m),
        lambda m: bloomlab.CacheLineFilter(m, 7),
    ],
    ids=["classic", "counting", "blocked", "blocked256", "cacheline"],
)
def test_a_huge_m_is_refused_by_name_not_by_memory(make):
    # Past 2^40 bits (the largest filter built, and a file's limit): a
    # ValueError naming m and the range, before anything is allocated.
    for m in (2**63, 2**40 + 1):
        with pytest.raises(ValueError, match=rf"m: {m} is out of range \(1 to {2**40}\)"):
            make(m)


def test_huge_cuckoo_and_scalable_are_refused_by_name():
    with pytest.raises(ValueError, match=rf"buckets: {2**33} is out of range \(1 to {2**32}\)"):
        bloomlab.CuckooFilter(2**33)
    with pytest.raises(ValueError, match=rf"n0 = .* needs more than {2**40} bits"):
        bloomlab.ScalableFilter(n0=2e11)


def test_sizing_and_rates_match_the_formulas():
    s = bloomlab.size(n=20, p=0.01)
    assert (s["m"], s["k"]) == (192, 7)
    assert bloomlab.size(n=20, p=0.01, prime=True)["m"] == 193
    a = bloomlab.analyze(m=2000, n=200, k=7)
    assert round(a["fpr_approx"] * 100, 3) == 0.819
    assert round(a["fpr_exact"] * 100, 3) == 0.823
    assert a["fpr_fill"] < a["fpr_exact"]
    assert a["k_best"] == 7
    assert math.isclose(bloomlab.bits_per_item(0.01), 9.585, rel_tol=1e-3)
    # The blocked layouts need 10.10 and 10.53 bits an item for 1%.
    assert round(bloomlab.size(n=1e6, p=0.01, kind="blocked")["bits_per_item"], 2) == 10.10
    assert round(bloomlab.size(n=1e6, p=0.01, kind="blocked256")["bits_per_item"], 2) == 10.53
    # The cache-line layout (RocksDB's): 9.90 bits an item for 1%, at k = 6, as `bloomlab size` says.
    cl = bloomlab.size(n=1e6, p=0.01, kind="cacheline")
    assert (cl["m"], cl["k"], round(cl["bits_per_item"], 2)) == (9895936, 6, 9.90)
    assert cl["fpr"] <= 0.01
    c = bloomlab.size(n=1000, p=0.002, kind="cuckoo")
    assert c["fingerprint_bits"] == 12 and c["buckets"] == 512


# Measured rates against each filter's own estimate. Fixed keys, so the
# outcome is fixed; the tolerance is 5 binomial standard deviations of the
# estimate over the number of probes.
@pytest.mark.parametrize("kind", ["classic", "counting", "blocked", "blocked256", "cacheline", "scalable", "cuckoo"])
def test_measured_rate_matches_fpr(kind):
    n, probes = 20000, 200000
    f = make(kind, n=n, p=0.02)
    f.add_many(ints(n, seed=10))
    est = f.fpr()
    measured = float(f.contains_many(ints(probes, seed=11)).mean())
    sd = math.sqrt(est * (1 - est) / probes)
    assert abs(measured - est) <= 5 * sd + 1e-4, (measured, est)
    if kind not in ("scalable",):
        assert est < 0.03


@pytest.mark.parametrize("kind", ["classic", "counting", "blocked", "blocked256", "cacheline"])
def test_union_is_the_filter_of_both_sets(kind):
    a_keys, b_keys = words(800, "a"), words(800, "b")
    a, b, both = make(kind), make(kind), make(kind)
    a.add_many(a_keys)
    b.add_many(b_keys)
    both.add_many(a_keys + b_keys)
    assert (a | b) == both
    shared = words(300, "s")
    a.add_many(shared)
    b.add_many(shared)
    assert (a & b).contains_many(shared).all()
    c = copy.copy(a)
    c |= b
    assert c == (a | b)
    assert c != a


def test_combining_different_filters_names_the_difference():
    with pytest.raises(ValueError, match="m 1000 vs 2000"):
        bloomlab.BloomFilter(1000, 7) | bloomlab.BloomFilter(2000, 7)
    with pytest.raises(ValueError, match="m 1024 vs 2048"):
        bloomlab.BlockedFilter(1024) | bloomlab.BlockedFilter(2048)
    with pytest.raises(TypeError):
        bloomlab.CuckooFilter(16) | bloomlab.CuckooFilter(16)
    assert (bloomlab.BloomFilter(100, 3) == bloomlab.BlockedFilter(512)) is False


@pytest.mark.parametrize("kind", KINDS)
def test_pickle_bytes_and_files_round_trip(kind, tmp_path):
    f = make(kind)
    f.add_many(words(500))
    g = pickle.loads(pickle.dumps(f))
    assert type(g) is type(f) and g == f and g.items() == f.items()
    assert bloomlab.from_bytes(f.to_bytes()) == f
    path = tmp_path / "f.bloom"
    f.save(str(path))
    h = bloomlab.load(str(path))
    assert h == f and h.items() == f.items() and h.bits() == f.bits()
    assert copy.deepcopy(f) == f


def test_keyed_filters_need_their_key(tmp_path):
    key = bytes(range(16))
    f = bloomlab.BlockedFilter(4096, key=key)
    g = bloomlab.BlockedFilter(4096)
    f.add("x")
    g.add("x")
    assert f.keyed and not g.keyed
    assert f != g
    path = str(tmp_path / "keyed.bloom")
    f.save(path)
    with pytest.raises(ValueError, match="key"):
        bloomlab.load(path)
    assert bloomlab.load(path, key=key) == f


def test_remove():
    c = bloomlab.CountingFilter(10007, 5)
    c.add("x")
    assert c.remove("x") is True and "x" not in c
    assert c.remove("never") is False
    q = bloomlab.CuckooFilter(64)
    q.add(b"y")
    assert q.remove(b"y") is True and b"y" not in q and q.items() == 0


def test_cuckoo_full_table_says_false():
    q = bloomlab.CuckooFilter(1, fingerprint_bits=16)
    assert sum(q.add(f"k{i}") for i in range(10)) == 4
    assert q.items() == 4
    assert q.add_many(words(10)) == 0


def test_scalable_grows_and_keeps_every_key():
    f = bloomlab.ScalableFilter(n0=1000, p0=0.01)
    keys = words(10000)
    # Keys that read present (false positives of the stages so far) are
    # skipped; the plan's limit bounds their share.
    assert f.add_many(keys) is None
    assert f.items() > len(keys) * (1 - f.fpr_limit())
    assert f.stages >= 4
    assert f.contains_many(keys).all()
    assert f.fpr() < f.fpr_limit()


def test_threads_adding_to_one_filter_lose_nothing():
    # add_many releases the GIL; the filter's lock keeps writers apart.
    xs = ints(400000, seed=5)
    serial = bloomlab.BlockedFilter(1 << 22)
    serial.add_many(xs)
    shared = bloomlab.BlockedFilter(1 << 22)
    parts = np.array_split(xs, 8)
    threads = [threading.Thread(target=shared.add_many, args=(p,)) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert shared == serial
    results = [None] * 4

    def look(i):
        results[i] = shared.contains_many(xs)

    threads = [threading.Thread(target=look, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.all() for r in results)


def test_docstrings_state_the_rates():
    assert "(1 - e^(-kn/m))^k" in bloomlab.analyze.__doc__
    assert "(X/m)^k" in bloomlab.BloomFilter.fpr.__doc__
    assert "Pois" in bloomlab.BlockedFilter.__doc__
    assert "(1 - (1 - 1/B)^(ik))^k" in bloomlab.CacheLineFilter.__doc__
    assert "8/2^f" in bloomlab.CuckooFilter.fpr_bound.__doc__


def test_stubs_list_every_public_name():
    import ast
    import pathlib

    import bloomlab._bloomlab as core

    tree = ast.parse((pathlib.Path(bloomlab.__file__).with_name("_bloomlab.pyi")).read_text())
    stub_classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    stub_functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name in dir(core):
        obj = getattr(core, name)
        if name.startswith("_"):
            continue
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert name in stub_classes
        elif isinstance(obj, type):
            members = {n.name for n in stub_classes[name].body if isinstance(n, ast.FunctionDef)}
            members |= {n.target.id for n in stub_classes[name].body if isinstance(n, ast.AnnAssign)}
            public = {m for m in vars(obj) if not m.startswith("_") or m in ("__or__", "__and__", "__contains__")}
            assert public <= members, (name, public - members)
        elif callable(obj):
            assert name in stub_functions, name


def test_the_typing_of_a_kind_with_no_class_of_its_own_is_written_from_the_module():
    # CacheLineFilter's class is made from its registry row (bind_sized), and
    # its typing by the build (python/stubs.py), from the module's signatures.
    import ast
    import pathlib

    tree = ast.parse((pathlib.Path(bloomlab.__file__).with_name("_bloomlab.pyi")).read_text())
    typed_class = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}["CacheLineFilter"]
    init = next(n for n in typed_class.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assert ast.unparse(init.args) == "self, m: int, k: int, *, key: bytes | None=None"
    union = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "AnyFilter")
    assert [e.id for e in union.value.slice.elts] == [cls.__name__ for _, cls, *_ in bloomlab._bloomlab._kinds]
    assert bloomlab.CacheLineFilter.__doc__.startswith("The cacheline kind: k bits anywhere in one 512-bit cache line")
    assert "k from 1 to 24" in bloomlab.CacheLineFilter.__doc__
    assert repr(bloomlab.CacheLineFilter(1000, 6)) == "CacheLineFilter(m=1024, k=6, items=0)"


def test_the_stub_writer_refuses_a_member_it_cannot_type():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "stubs.py"
    spec = importlib.util.spec_from_file_location("stubs", path)
    stubs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stubs)
    assert stubs.class_stub(bloomlab.CacheLineFilter).splitlines()[:3] == [
        "class CacheLineFilter:",
        "    block_bits: int",
        "    def __init__(self, m: int, k: int, *, key: bytes | None = None) -> None: ...",
    ]

    class Odd(bloomlab.CacheLineFilter):
        def rebuild(self):
            pass

    with pytest.raises(SystemExit, match="Odd: no typing for rebuild"):
        stubs.class_stub(Odd)


@pytest.mark.parametrize("cls", [bloomlab.BlockedFilter, bloomlab.BlockedFilter256])
def test_slices_make_the_whole_filter(cls):
    m = 100 * cls.block_bits
    keys = words(3000)
    whole = cls(m)
    whole.add_many(keys)
    hs = whole._hashes(keys)
    which = cls._slices_of(hs, m, 3)
    assert set(which.tolist()) == {0, 1, 2}
    assert (np.diff(which[np.argsort(hs)].astype(np.int64)) >= 0).all()  # slices are runs of blocks
    built = [cls._build_slice(m, 3, s, [hs[which == s]]) for s in range(3)]
    assert sum(len(w) for w, _ in built) == m // 64
    f = cls._from_slices(m, [w for w, _ in built], whole.items())
    assert f == whole and f.items() == whole.items() == len(keys)
    with pytest.raises(ValueError, match="outside the slice's blocks"):
        cls._build_slice(m, 3, 0, [hs[which == 2]])
    with pytest.raises(ValueError, match="words in all"):
        cls._from_slices(m, [w for w, _ in built[:2]])
    with pytest.raises(ValueError, match=r"slices: 101 is out of range \(1 to the filter's 100 blocks\)"):
        cls._slices_of(hs, m, 101)


@pytest.mark.parametrize("kind", KINDS)
def test_keyed_filters_pickle_with_their_key(kind):
    key = bytes(range(100, 116))
    f = bloomlab.sized(kind, n=500, p=0.01, key=key)
    f.add_many(words(300))
    g = pickle.loads(pickle.dumps(f))
    assert g == f and g.keyed and g.contains_many(words(300)).all()


@pytest.mark.parametrize("cls,bits_per_key,rate", [
    (bloomlab.Fuse8Filter, 10.0, 2**-8), (bloomlab.Fuse16Filter, 20.0, 2**-16), (bloomlab.Xor8Filter, 9.9, 2**-8)])
def test_static_filters(cls, bits_per_key, rate):
    keys = ints(100000, seed=20)
    f = cls(keys)
    assert f.items() == 100000 and f.contains_many(keys).all()
    assert f.bits() / f.items() < bits_per_key
    assert f.fpr() == rate
    probes = 400000
    measured = float(f.contains_many(ints(probes, seed=21)).mean())
    assert abs(measured - rate) <= 5 * math.sqrt(rate * (1 - rate) / probes) + 1e-6
    s = cls(words(1000) + words(10))  # repeats dropped
    assert s.items() == 1000 and all(w in s for w in words(1000))
    assert pickle.loads(pickle.dumps(s)) == s
    keyed = cls(words(1000), key=bytes(16))
    assert keyed != s and pickle.loads(pickle.dumps(keyed)) == keyed
    assert (s == "x") is False and (s != 1) is True
    assert not hasattr(f, "add")


CORPUS = __import__("pathlib").Path(__file__).resolve().parents[2] / "tests" / "fuzz" / "corpus"
FRUIT = ["apple", "pear", "plum"]


def test_files_before_xxh3_load_with_hash64_and_answer_as_before():
    # Format version 2 (tests/fuzz/corpus): strings hashed by hash64. The
    # false positives among w0..w1999 are those bloomlab gave before XXH3.
    blocked = bloomlab.load(str(CORPUS / "blocked-v2.blf"))
    assert all(blocked.contains(x) for x in FRUIT)
    fuse8 = bloomlab.load(str(CORPUS / "fuse8.blf"))
    assert fuse8.string_hash == "hash64"
    probes = [f"w{i}" for i in range(2000)]
    maybe = [x for x, hit in zip(probes, fuse8.contains_many(probes)) if hit]
    assert maybe == ["w67", "w322", "w339", "w469", "w835", "w995", "w1126", "w1314", "w1381", "w1393", "w1639"]
    # Pickled and written again, it keeps hash64.
    again = pickle.loads(pickle.dumps(fuse8))
    assert again == fuse8 and again.string_hash == "hash64"
    assert bloomlab.from_bytes(fuse8.to_bytes()) == fuse8
    # A new filter of the same keys hashes with XXH3: another filter.
    new = bloomlab.Fuse8Filter(FRUIT)
    assert new.string_hash == "xxh3" and new != fuse8
    assert all(new.contains(x) for x in FRUIT)


@pytest.mark.parametrize("kind", ["classic", "counting", "cuckoo", "scalable", "blocked", "cacheline", "guava"])
def test_key_type_follows_the_keys_added(kind, tmp_path):
    f = bloomlab.sized(kind, n=100, p=0.01)
    assert f.key_type == "none yet"
    f.add_many(np.array([1, 2], dtype=np.uint64))
    assert f.key_type == "integers"
    f.add(3)
    assert f.key_type == "integers"
    # Saved, pickled, copied: the same record.
    path = str(tmp_path / "f.blf")
    f.save(path)
    assert bloomlab.load(path).key_type == "integers"
    assert pickle.loads(pickle.dumps(f)).key_type == "integers"
    assert bloomlab.from_bytes(f.to_bytes()).key_type == "integers"
    # A key of the other type: both, so nothing is recorded, and it stays so.
    f.add("three")
    assert f.key_type == "not recorded"
    f.add(4)
    assert f.key_type == "not recorded"
    g = bloomlab.sized(kind, n=100, p=0.01)
    g.add_many(["a", "b"])
    assert g.key_type == "strings"
    g.add_many([])  # no keys: no change
    assert g.key_type == "strings"


def test_key_type_of_unions_clears_and_static_filters():
    a, b, c = (bloomlab.BloomFilter(2048, 5) for _ in range(3))
    a.add("x")
    b.add(5)
    assert (a | c).key_type == "strings"  # c holds no keys yet
    assert (a | b).key_type == "not recorded"
    c |= b
    assert c.key_type == "integers"
    c.clear()
    assert c.key_type == "none yet"
    ints = bloomlab.Xor8Filter(np.arange(100, dtype=np.uint64))
    assert ints.key_type == "integers"
    assert bloomlab.from_bytes(ints.to_bytes()).key_type == "integers"
    assert pickle.loads(pickle.dumps(ints)).key_type == "integers"
    assert bloomlab.Fuse8Filter(FRUIT).key_type == "strings"
    assert bloomlab.Fuse8Filter([]).key_type == "none yet"
    # Written before format version 4: not recorded.
    assert bloomlab.load(str(CORPUS / "blocked-v2.blf")).key_type == "not recorded"
    assert bloomlab.load(str(CORPUS / "fuse8.blf")).key_type == "not recorded"


def test_signed_integer_arrays_are_the_same_keys_as_unsigned():
    # pandas and Dask hand integer ids over as int64: each non-negative value
    # is the same key as its uint64.
    ids = np.arange(0, 50_000, 7, dtype=np.int64)
    a, b = bloomlab.sized("blocked", n=len(ids), p=0.01), bloomlab.sized("blocked", n=len(ids), p=0.01)
    a.add_many(ids)
    b.add_many(ids.astype(np.uint64))
    assert a == b
    assert a.contains_many(ids.astype(np.int32)).all()


def test_len_version_and_public_names():
    f = bloomlab.sized("classic", n=100, p=0.01)
    f.add_many(["a", "b", "a"])
    assert len(f) == f.items() == 3  # repeats counted: a filter cannot tell one
    assert len(bloomlab.Fuse8Filter(["x", "y", "y"])) == 2
    assert bloomlab.__version__ == bloomlab._bloomlab.__version__
    assert all(not name.startswith("_") or name == "__version__" for name in bloomlab.__all__)
    for internal in ("hashes", "slices_of", "build_slice", "from_slices"):
        assert not hasattr(bloomlab.BlockedFilter, internal)


def test_every_kind_of_the_registry_is_exported_and_described():
    # The package takes its classes, their list in help(bloomlab) and
    # sized()'s sizing lines from the engine's registry: a new kind needs no
    # line of its own in bloomlab/__init__.py.
    rows = bloomlab._bloomlab._kinds

    def flat(text):  # the text without its line breaks and padding
        return " ".join(text.split())

    assert [name for name, *_ in rows if name in bloomlab.KINDS] == list(bloomlab.KINDS)
    for name, cls, adds, summary, sizing in rows:
        assert getattr(bloomlab, cls.__name__) is cls
        assert cls.__name__ in bloomlab.__all__
        assert f"{name} {cls.__name__} {summary}" in flat(bloomlab.__doc__)
        if adds:
            assert sizing and flat(f"{name}: {sizing}") in flat(bloomlab.sized.__doc__)
            assert bloomlab.kind_of(bloomlab.sized(name, n=100, p=0.01)) == name
        else:
            assert not sizing and f"{name}:" not in bloomlab.sized.__doc__
    assert "{" not in bloomlab.__doc__ and "{" not in bloomlab.sized.__doc__
    assert "Pois(i; nB/m)" in flat(bloomlab.sized.__doc__)  # blocked's line, as the registry gives it


def test_help_names_the_argument_types():
    assert "keys: numpy.ndarray | Sequence[str | bytes | int]" in bloomlab.BloomFilter.add_many.__doc__
    assert "m: int, k: int" in bloomlab.BloomFilter.__init__.__doc__
    assert "handle" not in bloomlab.CuckooFilter.remove.__doc__


def test_the_type_hints_defaults_are_the_modules():
    # _bloomlab.pyi is text: each default it states must be the one the
    # module (the engine) defines, read from the signature pybind11 writes.
    import pathlib
    import re

    hints = (pathlib.Path(bloomlab.__file__).parent / "_bloomlab.pyi").read_text()
    doc = bloomlab.ScalableFilter.__init__.__doc__
    for name in ("growth", "tighten"):
        in_module = re.search(rf"{name}: float = ([0-9.]+)", doc).group(1)
        in_hints = re.search(rf"{name}: float = ([0-9.]+)", hints).group(1)
        assert float(in_hints) == float(in_module), name


# clear() on every kind that takes keys after it is made (the engine's
# dynamic_filter): no key left, no item counted, no key type recorded, the
# same parameters, and the filter takes keys again.
@pytest.mark.parametrize("kind", KINDS)
def test_clear_empties_every_kind_that_takes_keys(kind):
    f = make(kind)
    assert hasattr(f, "clear") == hasattr(f, "add"), kind
    if not hasattr(f, "clear"):
        return
    empty = make(kind)
    keys = words(500, "clear")
    f.add_many(keys)
    assert f.contains_many(keys).all() and len(f) == 500
    f.clear()
    assert len(f) == 0 and f.key_type == "none yet"
    assert f == empty
    assert not f.contains_many(keys).any()
    f.add("again")
    assert "again" in f and len(f) == 1
