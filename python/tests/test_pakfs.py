# SPDX-License-Identifier: GPL-2.0-or-later
"""The Python module pakfs as a program uses it: zipfile's shape, bytes as `pak cat` writes
them, a seekable stream, its errors, gbx information, and fsspec's protocol "pak"."""

import io
import json
import os
import random
import shutil
import subprocess

import pytest

import pakfs

PAK = os.environ["PAKFS_PAK_BINARY"]
SOURCE = os.environ["PAKFS_SOURCE_DIR"]
KEY_STRING = "00112233445566778899AABBCCDDEEFF"


def pak(*args):
    return subprocess.run([PAK, *args], check=True, capture_output=True).stdout


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """Lib.pak, its key in the packlist.dat beside it: sample/tree, a large file, and a stored
    gbx file nothing proves."""
    d = tmp_path_factory.mktemp("pak")
    tree = d / "tree"
    shutil.copytree(os.path.join(SOURCE, "sample/tree"), tree)
    rng = random.Random(7)
    big = bytes(rng.choice(b"abcd") for _ in range(1 << 21))
    (tree / "Media" / "big.bin").write_bytes(big)
    junk = bytes([0x47, 0x42, 0x58, 6, 0, 0x42, 0x55, 0x55, 0x52, 0, 0x30, 4, 3, 0, 0, 0, 0])
    (tree / "bad.Map.Gbx").write_bytes(junk + b"\xee" * (400 - len(junk)))
    pak("packlist", "add", str(d / "packlist.dat"), "Lib", "--key-string", KEY_STRING)
    pak("pack", "-q", "--raw", "bad.Map.Gbx", str(tree), str(d / "Lib.pak"))
    return d / "Lib.pak", big


def test_reads_as_zipfile(sample, tmp_path):
    path, big = sample
    with pakfs.PakFile(path) as p:  # the key from packlist.dat beside it
        assert p.namelist() == pak("ls", str(path)).decode().splitlines()
        for name in p.namelist():
            if name != "bad.Map.Gbx":
                assert p.read(name) == pak("cat", str(path), name), name
        assert p.read("media/BIG.BIN") == big
        info = p.getinfo("Media/big.bin")
        assert (info.filename, info.file_size) == ("Media/big.bin", len(big))
        assert info.compress_size < info.file_size
        assert info.decode == "-" and not info.gbx
        infos = {i.filename: i for i in p.infolist()}
        assert infos["Tracks/Demo.Challenge.Gbx"].class_id == 0x03043000
        assert infos["Tracks/Demo.Challenge.Gbx"].decode.startswith("gbx:")
        assert infos["bad.Map.Gbx"].decode == "gbx!"
        assert "MEDIA/big.bin" in p and "Media" not in p
        p.extractall(tmp_path / "out", members=["Media/big.bin", "Tracks/Demo.Challenge.Gbx"])
        assert (tmp_path / "out/Media/big.bin").read_bytes() == big
        facts = p.check()
        cli = subprocess.run([PAK, "check", "--json", str(path)], capture_output=True)
        want = json.loads(cli.stdout)
        del want["file"]
        assert facts == want
        assert facts["gbx"]["refused"] == 1


def test_open_streams_and_seeks(sample):
    path, big = sample
    with pakfs.PakFile(path) as p, p.open("Media/big.bin") as f:
        assert isinstance(f, io.RawIOBase) and f.seekable() and f.readable()
        assert f.read(10) == big[:10]
        assert f.seek(1_500_000) == 1_500_000
        assert f.read(7) == big[1_500_000:1_500_007]
        assert f.seek(-5, io.SEEK_END) == len(big) - 5
        assert f.read() == big[-5:]
        assert f.seek(3) == 3 and f.tell() == 3
        buf = bytearray(4)
        assert f.readinto(buf) == 4 and bytes(buf) == big[3:7]
        reader = io.BufferedReader(p.open("Media/big.bin"))
        assert reader.read() == big


def test_errors(sample, tmp_path):
    path, _ = sample
    p = pakfs.PakFile(path)
    with pytest.raises(KeyError, match="no file \"nothere.txt\" in the pak"):
        p.read("nothere.txt")
    with pytest.raises(KeyError):
        p.getinfo("nothere.txt")
    with pytest.raises(pakfs.UnprovenError, match="bad.Map.Gbx: cannot be decoded exactly"):
        p.read("bad.Map.Gbx")
    # Asked for unproven bytes, one the node scan cannot decode either is still refused.
    with pytest.raises(pakfs.UnprovenError, match="bad.Map.Gbx: cannot be decoded exactly"):
        pakfs.PakFile(path, allow_unproven=True).read("bad.Map.Gbx")
    alone = tmp_path / "Lib.pak"
    shutil.copy(path, alone)
    with pytest.raises(pakfs.NoKey, match="no key given and no packlist.dat beside it"):
        pakfs.PakFile(alone)
    with pytest.raises(pakfs.WrongKey) as wrong:
        pakfs.PakFile(alone, key="000102030405060708090A0B0C0D0E0F")
    assert isinstance(wrong.value, pakfs.BadPakFile)
    assert pakfs.PakFile(alone, packlist=path.parent / "packlist.dat").namelist() == p.namelist()
    # The key itself (the packlist's third column), not the key string it is made from.
    key = pak("packlist", "ls", str(path.parent / "packlist.dat")).decode().split("\t")[2]
    (tmp_path / "key").write_text(key.strip())
    assert pakfs.PakFile(alone, keys=tmp_path / "key").namelist() == p.namelist()
    (tmp_path / "junk.pak").write_bytes(b"x" * 200)
    with pytest.raises(pakfs.BadPakFile):
        pakfs.PakFile(tmp_path / "junk.pak", key="000102030405060708090A0B0C0D0E0F")
    with pytest.raises(OSError, match="nothere.pak: no such file"):
        pakfs.PakFile(tmp_path / "nothere.pak")
    with pytest.raises(ValueError):
        pakfs.PakFile(alone, key="1234")
    p.close()
    with pytest.raises(ValueError):
        p.namelist()


def test_gbx_info_and_thumbnail(sample, tmp_path):
    path, _ = sample
    name = "Tracks/Demo.Challenge.Gbx"
    data = pakfs.PakFile(path).read(name)
    want = json.loads(pak("gbx", "info", "--json", f"{path}:{name}"))
    del want["file"]
    assert pakfs.gbx_info(data) == want
    (tmp_path / "map.Gbx").write_bytes(data)
    assert pakfs.gbx_info(tmp_path / "map.Gbx") == want
    thumb = pakfs.gbx_thumbnail(data)
    cli = subprocess.run([PAK, "gbx", "thumbnail", "-o", str(tmp_path / "t"), f"{path}:{name}"],
                         capture_output=True)
    if cli.returncode == 0:
        assert thumb is not None and thumb[0] == (tmp_path / "t").read_bytes()
    else:
        assert thumb is None


def test_fsspec_protocol(sample):
    fsspec = pytest.importorskip("fsspec")
    path, big = sample
    fs = fsspec.filesystem("pak", fo=str(path))
    assert fs.cat("Media/big.bin") == big
    assert fs.cat("pak://Tracks/Demo.Challenge.Gbx") == pak("cat", str(path),
                                                             "Tracks/Demo.Challenge.Gbx")
    names = [e["name"] if isinstance(e, dict) else e for e in fs.ls("Media", detail=False)]
    assert "Media/big.bin" in names and "Media/Texts" in names
    assert fs.info("Media/big.bin") == {"name": "Media/big.bin", "size": len(big),
                                        "type": "file"}
    assert fs.info("Media")["type"] == "directory"
    assert sorted(fs.find("Media/Texts")) == ["Media/Texts/readme.txt", "Media/Texts/tracks.txt"]
    with fs.open("Media/big.bin") as f:
        f.seek(1000)
        assert f.read(5) == big[1000:1005]
