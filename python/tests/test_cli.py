"""Filter files cross between the module and the bloomlab command."""

import subprocess

import pytest

import bloomlab

# The CLI's kinds and how `bloomlab build` sizes each.
CLI_KINDS = ["classic", "counting", "blocked", "blocked256", "cacheline", "cuckoo", "scalable"]


def items(count, prefix):
    return [f"{prefix}{i}" for i in range(count)]


def run(cli, *args, stdin=None):
    return subprocess.run([cli, *args], input=stdin, capture_output=True, text=True, timeout=120)


def query(cli, path, keys):
    """{key: True for maybe, False for no} from `bloomlab query PATH -`."""
    r = run(cli, "query", path, "-", stdin="".join(k + "\n" for k in keys))
    assert r.returncode in (0, 1), r.stderr
    out = {}
    for line in r.stdout.splitlines():
        answer, key = line.split("\t", 1)
        out[key] = answer == "maybe"
    assert len(out) == len(keys)
    return out


@pytest.mark.parametrize("kind", CLI_KINDS)
def test_cli_builds_what_python_builds(cli, kind, tmp_path):
    keys = items(3000, "url-")
    listing = tmp_path / "keys.txt"
    listing.write_text("".join(k + "\n" for k in keys))
    path = str(tmp_path / "cli.bloom")
    r = run(cli, "build", "--kind", kind, "--n", "3000", "--p", "0.01", "-o", path, str(listing))
    assert r.returncode == 0, r.stderr
    from_cli = bloomlab.load(path)
    mine = bloomlab.sized(kind, n=3000, p=0.01)
    mine.add_many(keys)
    assert bloomlab.kind_of(from_cli) == kind
    assert from_cli == mine
    assert from_cli.contains_many(keys).all()
    probe = items(5000, "absent-")
    assert list(from_cli.contains_many(probe)) == list(mine.contains_many(probe))


@pytest.mark.parametrize("kind", CLI_KINDS)
def test_cli_reads_what_python_saves(cli, kind, tmp_path):
    f = bloomlab.sized(kind, n=2000, p=0.02)
    keys = items(2000, "client-")
    f.add_many(keys)
    path = str(tmp_path / "py.bloom")
    f.save(path)
    probe = keys[:500] + items(2000, "other-")
    answers = query(cli, path, probe)
    assert all(answers[k] for k in keys[:500])
    assert [answers[k] for k in probe] == list(f.contains_many(probe))
    r = run(cli, "info", "--json", path)
    assert r.returncode == 0, r.stderr
    assert f'"{kind}"' in r.stdout


def test_cli_adds_to_a_python_filter(cli, tmp_path):
    f = bloomlab.BloomFilter(20011, 7)
    f.add_many(["a", "b"])
    path = str(tmp_path / "grow.bloom")
    f.save(path)
    r = run(cli, "add", path, "c", "d")
    assert r.returncode == 0, r.stderr
    g = bloomlab.load(path)
    f.add_many(["c", "d"])
    assert g == f and g.items() == 4



STATIC = {"fuse8": bloomlab.Fuse8Filter, "fuse16": bloomlab.Fuse16Filter, "xor8": bloomlab.Xor8Filter}


@pytest.mark.parametrize("kind", sorted(STATIC))
def test_static_files_cross_both_ways(cli, kind, tmp_path):
    """A static filter built by the CLI loads here equal to the one built here
    from the same keys (same default seed), and one saved here answers the
    CLI's queries as it answers here."""
    keys = items(2000, "url-")
    listing = tmp_path / "keys.txt"
    listing.write_text("".join(k + "\n" for k in keys + keys[:10]))  # repeats count once
    path = str(tmp_path / "cli.bloom")
    r = run(cli, "build", "--kind", kind, "-o", path, str(listing))
    assert r.returncode == 0, r.stderr
    from_cli = bloomlab.load(path)
    mine = STATIC[kind](keys)
    assert bloomlab.kind_of(from_cli) == kind
    assert from_cli == mine
    assert from_cli.items() == 2000
    with open(path, "rb") as f:
        assert f.read() == mine.to_bytes()
    assert bloomlab.from_bytes(mine.to_bytes()) == mine
    saved = str(tmp_path / "py.bloom")
    mine.save(saved)
    probe = items(3000, "absent-")
    answers = query(cli, saved, keys + probe)
    assert all(answers[k] for k in keys)
    assert [answers[k] for k in probe] == list(mine.contains_many(probe))
    assert "kind: " + kind in run(cli, "info", saved).stdout


@pytest.mark.parametrize("kind", CLI_KINDS)
def test_cli_queries_integer_keys_that_python_added(cli, kind, tmp_path):
    import numpy as np

    f = bloomlab.sized(kind, n=2000, p=0.01)
    f.add_many(np.arange(0, 2000 * 7919, 7919, dtype=np.uint64))
    path = str(tmp_path / "ints.bloom")
    f.save(path)
    asked = [str(x) for x in range(0, 2000 * 7919, 7919)] + [str(x) for x in range(1, 5001)]
    r = run(cli, "query", path, "--int", "-", stdin="".join(a + "\n" for a in asked))
    assert r.returncode in (0, 1), r.stderr
    answers = [line.split("\t", 1) for line in r.stdout.splitlines()]
    assert [key for _, key in answers] == asked
    # Every key added answers maybe, and each answer is the module's own.
    assert all(answer == "maybe" for answer, _ in answers[:2000])
    want = f.contains_many(np.array([int(a) for a in asked], dtype=np.uint64))
    assert [answer == "maybe" for answer, _ in answers] == list(want)
    # The file records integer keys, so the CLI reads them as integers without --int.
    assert f.key_type == "integers" and bloomlab.load(path).key_type == "integers"
    plain = run(cli, "query", path, "-", stdin="".join(a + "\n" for a in asked))
    assert plain.stdout == r.stdout and plain.returncode == r.returncode
    assert '"keys":"integers"' in run(cli, "info", "--json", path).stdout


def test_key_types_cross_between_the_module_and_the_cli(cli, tmp_path):
    import numpy as np

    strings, ints, both = (bloomlab.sized("blocked", n=1000, p=0.01) for _ in range(3))
    strings.add_many(["apple", "42"])
    ints.add_many(np.array([42, 7], dtype=np.uint64))
    both.add("apple")
    both.add(42)
    paths = {}
    for name, f in (("strings", strings), ("integers", ints), ("not recorded", both)):
        paths[name] = str(tmp_path / f"{name}.blf")
        f.save(paths[name])
        assert f'"keys":"{name}"' in run(cli, "info", "--json", paths[name]).stdout
    # A file of strings: 42 is the string; --int is refused, naming the file's key type.
    assert run(cli, "query", paths["strings"], "42").returncode == 0
    r = run(cli, "query", paths["strings"], "--int", "42")
    assert r.returncode == 2 and "--int does not apply" in r.stderr and "keys: strings" in r.stderr
    # A file of integers: 42 is the integer, with or without --int.
    assert run(cli, "query", paths["integers"], "42", "7").returncode == 0
    # Both: nothing recorded, so items are strings unless --int says otherwise.
    assert run(cli, "query", paths["not recorded"], "apple").returncode == 0
    assert run(cli, "query", paths["not recorded"], "--int", "42").returncode == 0
    # Integers added by the CLI to a module's filter of integers: loaded back, still integers.
    assert run(cli, "add", paths["integers"], "99").returncode == 0
    back = bloomlab.load(paths["integers"])
    assert back.key_type == "integers" and back.contains(99) and not back.contains("99")
    # A filter built by the CLI with --int is the module's filter of the same integers.
    listing = tmp_path / "ids.txt"
    listing.write_text("42\n7\n")
    built = str(tmp_path / "built.blf")
    assert run(cli, "build", str(listing), "--int", "--kind", "blocked", "--n", "1000", "--p", "0.01", "-o", built).returncode == 0
    from_cli = bloomlab.load(built)
    assert from_cli == ints and from_cli.key_type == "integers"


def test_cli_int_refuses_what_is_not_an_unsigned_integer(cli, tmp_path):
    f = bloomlab.sized("classic", n=10, p=0.01)
    path = str(tmp_path / "ints.bloom")
    f.save(path)
    r = run(cli, "query", path, "--int", "42", "-3")
    assert r.returncode == 2
    assert "--int: '-3' (item 2) is not an unsigned 64-bit integer" in r.stderr
    assert r.stdout == ""


def test_parquet_layout_crosses_both_ways(cli, tmp_path):
    """`build --format parquet` and save(format='parquet') write the same
    header and bitset; load() and `bloomlab query` read either."""
    keys = items(1000, "user_")
    listing = tmp_path / "keys.txt"
    listing.write_text("".join(k + "\n" for k in keys))
    from_cli = str(tmp_path / "cli.parquet-filter")
    r = run(cli, "build", "--kind", "parquet", "--n", "1000", "--p", "0.01", "--format", "parquet", "-o", from_cli,
            str(listing))
    assert r.returncode == 0, r.stderr
    mine = bloomlab.sized("parquet", n=1000, p=0.01)
    mine.add_many(keys)
    stored = mine.to_bytes(format="parquet")
    assert open(from_cli, "rb").read() == stored
    # The Thrift header (numBytes 2,048), then the bitset.
    assert stored[:16] == bytes.fromhex("1580201c1c00001c1c00001c1c000000")
    assert stored[16:] == mine.bitset()
    loaded = bloomlab.load(from_cli)
    assert loaded == mine
    assert loaded.items() == 0  # the layout keeps no count
    saved = str(tmp_path / "py.parquet-filter")
    mine.save(saved, format="parquet")
    answers = query(cli, saved, keys[:100] + items(1000, "absent-"))
    assert all(answers[k] for k in keys[:100])
    with pytest.raises(ValueError, match="not a layout of a classic filter"):
        bloomlab.sized("classic", n=10, p=0.01).to_bytes(format="parquet")


# Every kind sized from (n, p): `bloomlab size --kind K --json` and
# bloomlab.size(kind=K) give the same figures, and their m is what the kind's
# filter (bloomlab.sized) reports: counters for a counting filter.
SIZED_KINDS = ["classic", "counting", "blocked", "blocked256", "cacheline", "parquet", "rocksdb", "guava", "cuckoo"]
# The classic kind's CLI JSON is the formulas' (fpr_approx, fpr_exact, ...):
# these are the fields it shares with the module.
SHARED_FIELDS = {"classic": {"m", "k", "bits_per_item"}}


@pytest.mark.parametrize("kind", SIZED_KINDS)
def test_size_is_the_same_in_the_cli_and_the_module(cli, kind):
    import json

    n, p = 100_000, 0.01
    r = run(cli, "size", "--kind", kind, "--n", str(n), "--p", str(p), "--json")
    assert r.returncode == 0, r.stderr
    c = json.loads(r.stdout)
    s = bloomlab.size(n=n, p=p, kind=kind)
    shared = SHARED_FIELDS.get(kind, set(s) - {"kind", "n", "p"})
    assert shared <= set(c), sorted(shared - set(c))
    for name in sorted(shared):
        assert c[name] == pytest.approx(s[name], rel=1e-12), (name, c[name], s[name])
    f = bloomlab.sized(kind, n=n, p=p)
    if hasattr(f, "m"):
        assert f.m == s["m"]
    if "width" in s:  # counting: m counters of 4 bits
        assert (s["m"], s["bits"], s["width"]) == (958506, 4 * 958506, 4)


# `bloomlab info --json` of a filter the module saved.
def info_of(cli, f, tmp_path):
    import json

    path = str(tmp_path / "f.bloom")
    f.save(path)
    r = run(cli, "info", path, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# k, where a kind has one, is the same in the module and in `bloomlab info`
# (the blocked kinds' included: 8).
@pytest.mark.parametrize("kind", CLI_KINDS + ["parquet", "rocksdb", "guava"])
def test_k_is_the_same_in_the_module_and_info(cli, kind, tmp_path):
    f = bloomlab.sized(kind, n=1000, p=0.01)
    info = info_of(cli, f, tmp_path)
    assert hasattr(f, "k") == ("k" in info), (kind, sorted(info))
    if hasattr(f, "k"):
        assert f.k == info["k"]


# The distinct keys a filter's bits imply: the module's estimate_n() and
# estimate_n_se() are `bloomlab info`'s estimated_items and its error, on
# every kind that has them, and a kind has them in both or in neither.
@pytest.mark.parametrize("kind", CLI_KINDS + ["parquet", "rocksdb", "guava"])
def test_estimate_n_is_the_same_in_the_module_and_info(cli, kind, tmp_path):
    f = bloomlab.sized(kind, n=1000, p=0.01) if kind != "scalable" else bloomlab.ScalableFilter(n0=300)
    if hasattr(f, "add_many"):
        f.add_many([f"estimate-{i}" for i in range(900)])
    info = info_of(cli, f, tmp_path)
    assert hasattr(f, "estimate_n") == ("estimated_items" in info), (kind, sorted(info))
    if hasattr(f, "estimate_n"):
        assert info["estimated_items"] == pytest.approx(f.estimate_n(), rel=1e-12)
        assert info["estimated_items_se"] == pytest.approx(f.estimate_n_se(), rel=1e-12)
        assert f.estimate_n() == pytest.approx(900, abs=4 * f.estimate_n_se() + 18)
