"""RocksDBFilter: RocksDB's FastLocalBloom through the module. RocksDB's
Hash64 (check values from Debian's librocksdb), its sizing, the filter block
in and out, and the same filter as `bloomlab build --kind rocksdb` for the
same keys and bits a key (tests/rocksdb holds both against RocksDB's own
table files)."""

import subprocess

import pytest

import bloomlab


def test_hash_is_rocksdbs_hash64():
    assert bloomlab.RocksDBFilter.hash(b"") == 0x5342C3010FE1DD04
    assert bloomlab.RocksDBFilter.hash(b"key1") == 0x656809C4F775FBC3
    assert bloomlab.RocksDBFilter.hash(b"x" * 1000) == 0xDDA1079B8B293A62


def test_sized_as_rocksdb_sizes_it():
    f = bloomlab.RocksDBFilter.for_bits_per_key(1000, 10)
    assert (f.m, f.k, f.blocks, bloomlab.RocksDBFilter.block_bits) == (10240, 6, 20, 512)
    assert bloomlab.kind_of(f) == "rocksdb" and "rocksdb" in bloomlab.KINDS
    g = bloomlab.sized("rocksdb", n=1000, p=0.01)
    assert (g.m, g.k) == (10240, 6)
    with pytest.raises(ValueError, match="bits a key = 0.5 is out of range"):
        bloomlab.RocksDBFilter.for_bits_per_key(10, 0.5)
    with pytest.raises(ValueError, match="multiple of 64"):
        bloomlab.RocksDBFilter(100, 6)


def test_block_round_trips_and_answers():
    keys = [f"user:{i}" for i in range(3000)]
    f = bloomlab.RocksDBFilter.for_bits_per_key(len(keys), 10)
    f.add_many(keys)
    assert all(f.contains_many(keys))
    block = f.block()
    assert len(block) == f.m // 8 + 5 and block[-5:] == bytes([0xFF, 0, f.k, 0, 0])
    g = bloomlab.RocksDBFilter.from_block(block)
    assert g == f and g.items() == 0
    with pytest.raises(ValueError, match="Ribbon"):
        bloomlab.RocksDBFilter.from_block(block[:-5] + bytes([0xFE, 0, 6, 0, 0]))
    # About 1% of never-added keys, with a wide binomial margin (20,000 tries:
    # 4.5 standard deviations of 0.96% is 0.31%).
    others = [f"other:{i}" for i in range(20000)]
    rate = sum(f.contains_many(others)) / len(others)
    assert abs(rate - f.fpr()) < 0.0031


def test_cli_build_is_the_same_filter(cli, tmp_path):
    keys = [f"k{i:06d}" for i in range(2500)]
    listing = tmp_path / "keys.txt"
    listing.write_text("".join(k + "\n" for k in keys))
    out = tmp_path / "r.blf"
    subprocess.run([cli, "build", "--kind", "rocksdb", "--bits-per-key", "7.3", str(listing), "-o", str(out)],
                   check=True, capture_output=True)
    built = bloomlab.load(str(out))
    f = bloomlab.RocksDBFilter.for_bits_per_key(len(keys), 7.3)
    f.add_many(keys)
    assert built.block() == f.block() and built.k == 5
