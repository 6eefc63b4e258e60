# SPDX-License-Identifier: GPL-2.0-or-later
"""TrackMania .pak archives and .Pack.Gbx packs, read as zipfile reads a zip.

    import pakfs
    with pakfs.PakFile("Packs/Resource.pak") as pak:   # key from packlist.dat beside it
        for info in pak.infolist():
            print(info.filename, info.file_size, info.decode)
        data = pak.read("Media/Font/Arial.Font.Gbx")
        with pak.open("Media/Sound/Music.ogg") as f:   # streams, seeks
            f.seek(1000)

Errors: KeyError for a name the pak does not hold; BadPakFile for a file that is not a pak
or is damaged; WrongKey (a BadPakFile) for a key that does not fit; NoKey when no key is given
or found; UnprovenError for a file whose bytes cannot be proven (allow_unproven=True reads
them). Importing the module registers fsspec's protocol "pak" when fsspec is installed.
"""

import io
import json
import os

from . import _pakfs

__all__ = ["PakFile", "PakInfo", "PakfsError", "BadPakFile", "WrongKey", "NoKey",
           "UnprovenError", "gbx_info", "gbx_thumbnail", "__version__"]
__version__ = _pakfs.__version__


class PakfsError(Exception):
    """Base of the errors of this module (KeyError for a missing name is not one)."""


class BadPakFile(PakfsError):
    """The file is not a pak, or it is damaged."""


class WrongKey(BadPakFile):
    """The key given or found does not fit the pak."""


class NoKey(PakfsError):
    """The pak needs a key, and none was given or found in the packlist.dat beside it."""


class UnprovenError(PakfsError):
    """A file whose bytes cannot be proven; the message says why."""


class _MissingName(KeyError):
    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


_pakfs._set_errors({
    "no_key": NoKey,
    "wrong_key": WrongKey,
    "damaged_pack": BadPakFile,
    "missing_name": _MissingName,
    "unproven": UnprovenError,
    "io": OSError,
    "usage": ValueError,
})


class PakInfo:
    """What the pak says of one file, as zipfile.ZipInfo: filename, file_size, compress_size,
    and class_id, flags, compression, encrypted, gbx; decode (how its bytes are proven, as
    `pak ls -l` says it) and detail are found when first asked for (a gbx file is decoded)."""

    __slots__ = ("filename", "file_size", "compress_size", "class_id", "flags", "compression",
                 "encrypted", "gbx", "_pak", "_proof")

    def __init__(self, pak, fields):
        for key in ("filename", "file_size", "compress_size", "class_id", "flags",
                    "compression", "encrypted", "gbx"):
            setattr(self, key, getattr(fields, key))
        self._pak = pak
        self._proof = None

    def _proven(self):
        if self._proof is None:
            fields = self._pak.info(self.filename, True)
            self._proof = (fields.decode, fields.detail)
        return self._proof

    @property
    def decode(self):
        return self._proven()[0]

    @property
    def detail(self):
        return self._proven()[1]

    def is_dir(self):
        return False

    def __repr__(self):
        return f"<PakInfo filename={self.filename!r} file_size={self.file_size}>"


class PakEntryFile(io.RawIOBase):
    """One file of a pak as a seekable binary file object (PakFile.open)."""

    def __init__(self, reader, name):
        super().__init__()
        self._reader = reader
        self.name = name

    def readable(self):
        return True

    def seekable(self):
        return True

    def readinto(self, buffer):
        self._checkClosed()
        return self._reader.readinto(buffer)

    def read(self, size=-1):
        self._checkClosed()
        if size is None or size < 0:
            size = self._reader.size() - self._reader.tell()
        return self._reader.read(size)

    def readall(self):
        return self.read(-1)

    def seek(self, offset, whence=io.SEEK_SET):
        self._checkClosed()
        if whence == io.SEEK_CUR:
            offset += self._reader.tell()
        elif whence == io.SEEK_END:
            offset += self._reader.size()
        elif whence != io.SEEK_SET:
            raise ValueError(f"invalid whence ({whence})")
        if offset < 0:
            raise ValueError(f"negative seek position {offset}")
        self._reader.seek(min(offset, self._reader.size()))
        return self._reader.tell()

    def tell(self):
        self._checkClosed()
        return self._reader.tell()

    @property
    def size(self):
        return self._reader.size()


class PakFile:
    """An open pak, read-only. With no key given, the key of the pak's entry in the
    packlist.dat beside it, as the pak command finds it. keys: a file holding the key (16 raw
    bytes or 32 hex digits, as pak --key-file)."""

    def __init__(self, path, key=None, packlist=None, base_key=None, keys=None, ms_key=None,
                 allow_unproven=False):
        self.filename = os.fspath(path)
        self._pak = _pakfs._PakFile(self.filename, key or "", os.fspath(keys or ""),
                                    os.fspath(packlist or ""), base_key or "", ms_key or "",
                                    bool(allow_unproven))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._pak = None

    def _open_pak(self):
        if self._pak is None:
            raise ValueError("I/O operation on a closed PakFile")
        return self._pak

    @property
    def version(self):
        return self._open_pak().version()

    @property
    def warnings(self):
        return self._open_pak().warnings()

    def namelist(self):
        """Every file's path, in `pak ls` order."""
        return self._open_pak().names()

    def getinfo(self, name):
        pak = self._open_pak()
        return PakInfo(pak, pak.info(name, False))

    def infolist(self):
        """getinfo() of every file, in `pak ls` order."""
        return [self.getinfo(n) for n in self.namelist()]

    def __contains__(self, name):
        return self._open_pak().contains(name)

    def read(self, name):
        """The file's bytes, as `pak cat` writes them."""
        return self._open_pak().read(name)

    def open(self, name, mode="r"):
        if mode not in ("r", "rb"):
            raise ValueError("a pak is opened for reading only")
        return PakEntryFile(self._open_pak().open(name), name)

    def extract(self, member, path=None):
        """Writes one file under `path` (default: the current folder); returns where."""
        name = member.filename if isinstance(member, PakInfo) else member
        parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
        if not parts or ".." in parts:
            raise ValueError(f"{name}: not a path that stays inside the target folder")
        target = os.path.join(path or os.getcwd(), *parts)
        data = self.read(name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = target + ".pakfs-tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
        return target

    def extractall(self, path=None, members=None):
        for m in members if members is not None else self.namelist():
            self.extract(m, path)

    def check(self):
        """Every file decoded as `pak check` decodes them: the dict `pak check --json` prints
        (without "file"): files, plain, plain_unverified, gbx (by proof), counter_mode, failed,
        and entries, one {path, gbx, decode, detail, error, unverified} each."""
        return json.loads(self._open_pak().check_json())


def _bytes_of(data_or_path):
    if isinstance(data_or_path, (bytes, bytearray, memoryview)):
        return bytes(data_or_path), "gbx"
    with open(data_or_path, "rb") as f:
        return f.read(), os.fspath(data_or_path)


def gbx_info(data_or_path):
    """A gbx file's header and references: a dict with the keys of `pak gbx info --json`."""
    data, name = _bytes_of(data_or_path)
    return json.loads(_pakfs.gbx_info_json(data, name))


def gbx_thumbnail(data_or_path):
    """A map's thumbnail or a collector's icon, upright: (bytes, format) with format "jpeg",
    "png" or "webp"; None when the file has none."""
    data, name = _bytes_of(data_or_path)
    t = _pakfs.gbx_thumbnail(data, name)
    return None if t is None else (t[0], t[1])


try:
    from . import _fsspec  # noqa: F401  (registers the protocol "pak")
except ImportError:  # fsspec is not installed
    pass
