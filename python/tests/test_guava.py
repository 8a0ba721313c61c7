"""GuavaFilter: a file Guava's BloomFilter.writeTo wrote (data/strings-200.guava,
the keys guava-0 .. guava-199 at n = 200, p = 0.01; tests/guava's oracle checks
it is still what Guava writes) loads and answers, and bloomlab's own filter of
the same keys is the same bytes."""

import pathlib

import pytest

import bloomlab

FIXTURE = pathlib.Path(__file__).parent / "data" / "strings-200.guava"
MEMBERS = [f"guava-{i}" for i in range(200)]


def test_a_file_guava_wrote_loads_and_answers():
    f = bloomlab.load(str(FIXTURE))
    assert isinstance(f, bloomlab.GuavaFilter)
    assert (f.m, f.k, f.funnel, f.items()) == (1920, 7, "string", 0)
    assert all(x in f for x in MEMBERS)
    assert f.contains_many(MEMBERS).all()
    # Others answer no but for about 1% (Guava's expectedFpp of these bits).
    others = [f"other-{i}" for i in range(20_000)]
    rate = f.contains_many(others).mean()
    assert 0.004 < rate < 0.02, rate
    assert f.fpr() == pytest.approx(0.01046959643276454, rel=1e-12)  # Guava's expectedFpp()
    assert round(f.estimate_n()) == 202  # Guava's approximateElementCount()


def test_the_same_keys_give_guavas_bytes():
    ours = bloomlab.sized("guava", n=200, p=0.01)
    ours.add_many(MEMBERS)
    data = FIXTURE.read_bytes()
    assert ours.to_bytes(format="guava") == data
    assert bloomlab.from_bytes(data).to_bytes(format="guava") == data
    assert bloomlab.size(200, 0.01, kind="guava")["m"] == 1920


def test_longs_and_bad_bytes(tmp_path):
    f = bloomlab.GuavaFilter(1000, 5, "long")
    f.add(-7 % 2**64)  # a Java long as its 64-bit two's complement
    path = tmp_path / "longs.guava"
    f.save(str(path), format="guava")
    g = bloomlab.load(str(path), funnel="long")
    assert g.funnel == "long" and (-7 % 2**64) in g
    assert bloomlab.load(str(path)).funnel == "string"  # Guava's bytes do not say
    with pytest.raises(bloomlab.FormatError, match="strategy byte 0"):
        bloomlab.from_bytes(b"\x00" + FIXTURE.read_bytes()[1:])
    with pytest.raises(bloomlab.FormatError, match="truncated"):
        bloomlab.from_bytes(FIXTURE.read_bytes()[:106])
    with pytest.raises(ValueError, match="funnel"):
        bloomlab.load(str(FIXTURE), funnel="bytes")
    with pytest.raises(ValueError, match="keyed"):
        bloomlab.GuavaFilter(64, 1, key=bytes(range(16))).to_bytes(format="guava")
