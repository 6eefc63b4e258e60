# SPDX-License-Identifier: GPL-2.0-or-later
"""fsspec's protocol "pak": a pak as a read-only file system.

    fs = fsspec.filesystem("pak", fo="Packs/Resource.pak")   # key options as pakfs.PakFile
    fs.ls("Media/Font"); fs.cat("Media/Font/Arial.Font.Gbx"); fs.open(...); fs.find("Media")
"""

import fsspec
from fsspec.archive import AbstractArchiveFileSystem

import pakfs


class PakFileSystem(AbstractArchiveFileSystem):
    """The files of one pak, read-only; its folders are those its paths name."""

    protocol = "pak"
    root_marker = ""

    def __init__(self, fo="", key=None, packlist=None, base_key=None, keys=None, ms_key=None,
                 allow_unproven=False, **kwargs):
        super().__init__(**kwargs)
        if hasattr(fo, "path"):  # an fsspec OpenFile
            fo = fo.path
        self.fo = fo
        self.pak = pakfs.PakFile(fo, key=key, packlist=packlist, base_key=base_key, keys=keys,
                                 ms_key=ms_key, allow_unproven=allow_unproven)
        self.dir_cache = None

    @classmethod
    def _strip_protocol(cls, path):
        return super()._strip_protocol(path).lstrip("/")

    def _get_dirs(self):
        if self.dir_cache is not None:
            return
        self.dir_cache = {}
        for info in self.pak.infolist():
            parts = info.filename.split("/")
            for i in range(1, len(parts)):
                folder = "/".join(parts[:i])
                self.dir_cache.setdefault(folder, {"name": folder, "size": 0,
                                                   "type": "directory"})
            self.dir_cache[info.filename] = {"name": info.filename, "size": info.file_size,
                                             "type": "file"}

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None,
              **kwargs):
        if mode not in ("r", "rb"):
            raise ValueError("a pak is opened for reading only")
        return self.pak.open(self._strip_protocol(path))

    def cat_file(self, path, start=None, end=None, **kwargs):
        data = self.pak.read(self._strip_protocol(path))
        return data if start is None and end is None else data[start:end]


fsspec.register_implementation("pak", PakFileSystem, clobber=True)
