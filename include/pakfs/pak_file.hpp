// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs::PakFile: a TrackMania .pak archive (version 3) or .Pack.Gbx pack (versions 6 to 18)
// opened for reading: its names, what each entry is, its bytes whole or as a seekable stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <pakfs/error.hpp>

namespace pakfs {

// How to find a pak's key. All empty: the key of the pak's entry in the packlist.dat beside it
// (found whatever its case, the entry matched by the pak's file name), as the pak command does;
// a version 6+ pack without one still lists what its header shows.
struct OpenOptions {
    std::string key;       // the 16-byte Blowfish key as 32 hex digits (pak --key)
    std::string key_file;  // a file holding the key: 16 raw bytes or 32 hex digits (--key-file)
    std::string packlist;  // a packlist.dat to take the key from (--packlist)
    std::string base_key;  // version 6+: a base key as 32 hex digits (--base-key)
    std::string ms_key;    // version 6+: a master server key as 32 hex digits (--ms-key)
    // Return the bytes of files that cannot be proven (a stored gbx file no reader can prove,
    // a counter-mode file no checksum covers) as their best decode (pak --unverified) instead
    // of throwing ErrorKind::unproven.
    bool allow_unproven = false;
};

// One file of a pak, as `pak ls --json` describes it.
struct EntryInfo {
    std::string name;               // its path in the pak, '/' between names
    std::uint64_t size = 0;         // bytes once decoded
    std::uint64_t stored_size = 0;  // bytes as stored (compressed)
    std::uint32_t class_id = 0;     // the file table's class ID
    std::uint64_t flags = 0;        // the file table's flags
    std::string compression;        // "stored", "zlib" or "lz4"
    bool encrypted = false;
    bool gbx = false;  // a gbx file, decoded through the game's pipeline
    // How its bytes are proven, as `pak ls -l` says it: "-" (a plain file), "gbx:parsed",
    // "gbx:header", "gbx:exact", "gbx:verified", "gbx!" (refused: `detail` says why),
    // "counter" or "counter:unverified" (version 6+ counter mode), "locked" (no key given).
    std::string decode;
    std::string detail;  // for a gbx file: how its bytes are proven, or why they cannot be
};

class PakFile;

// A file of a pak read as a stream: sequential reads decode as they go (a large file is never
// held whole unless it is a gbx file, decoded whole through the game's pipeline); seek() jumps
// (forward by decoding, backward from the nearest point it kept). A damaged file is an
// Exception at the read that reaches the damage, never wrong bytes. One reader is used by one
// thread at a time; it keeps its PakFile's data alive.
class PAKFS_API EntryReader {
public:
    EntryReader(EntryReader&&) noexcept;
    EntryReader& operator=(EntryReader&&) noexcept;
    ~EntryReader();

    // Fills `buffer` with the next bytes; returns fewer than `size` only at the end.
    std::size_t read(void* buffer, std::size_t size);
    // Moves to `offset` (at most size()).
    void seek(std::uint64_t offset);
    std::uint64_t tell() const;
    std::uint64_t size() const;

private:
    friend class PakFile;
    struct Impl;
    explicit EntryReader(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// An open pak. Names are looked up as `pak cat` finds them: the exact path first, then without
// regard to case, as the game compares names.
//
// Thread safety: a PakFile never changes once open, and every const member may be called from
// several threads at once (each read decodes on the calling thread). An EntryReader belongs to
// one thread at a time.
class PAKFS_API PakFile {
public:
    // Opens the pak at `path` (Exception: io, no_key, wrong_key, damaged_pack, usage).
    explicit PakFile(const std::string& path, const OpenOptions& options = {});
    PakFile(PakFile&&) noexcept;
    PakFile& operator=(PakFile&&) noexcept;
    ~PakFile();

    const std::string& path() const;
    // 3 for TrackMania Nations/United's .pak, 6 to 18 for ManiaPlanet's and later packs.
    unsigned version() const;
    // Problems that do not stop it from being read (a packlist signature, checksums).
    std::vector<std::string> warnings() const;

    // Every file's path, in `pak ls` order.
    std::vector<std::string> names() const;
    bool contains(const std::string& name) const;
    // What the file at `name` is (missing_name when there is none). Saying how a gbx file's
    // bytes are proven decodes it: with `prove` false, `decode` and `detail` are left empty
    // and nothing is decoded.
    EntryInfo info(const std::string& name, bool prove = true) const;
    // info() of every file, in `pak ls` order.
    std::vector<EntryInfo> infos(bool prove = true) const;

    // The file's bytes, exactly as `pak cat` writes them (Exception: missing_name, unproven,
    // damaged_pack, no_key).
    std::vector<std::uint8_t> read(const std::string& name) const;
    // The file as a seekable stream (the same errors, from open() or from the read meeting them).
    EntryReader open(const std::string& name) const;

    // Every file decoded as `pak check` decodes them, nothing written: the JSON text `pak check
    // --json` prints (without its "file" key): counts of plain, gbx by proof, counter-mode and
    // failed files, and "entries", one {path, gbx, decode, detail, error, unverified} each.
    std::string check_json() const;

private:
    struct Impl;
    std::shared_ptr<const Impl> impl_;
};

}  // namespace pakfs
