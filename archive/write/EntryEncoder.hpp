// SPDX-License-Identifier: GPL-2.0-or-later
// One entry encoded for writing: its data blob (compressed, encrypted) and its file table fields.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "archive/cipher/Crypto.hpp"
#include "archive/write/PackOptions.hpp"
#include "gbx/ClassIds.hpp"

namespace pakfs::archive {

// Where a slot copied as it is lies in the base pak (IV and data), when its bytes are copied
// file to file instead of through `blob`.
struct CopiedSlot {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    // Version 14+: the base's slot MD5, when it covers exactly the slot as the writer lays it
    // out (the IV, the data and the base's own padding up to a multiple of 64) and the base's
    // contents checksum held on open; the writer then copies those bytes and reuses it.
    std::optional<Md5Digest> md5;
};

// One entry ready to be written: its data blob and its file table fields.
struct EncodedEntry {
    Bytes blob;  // 8-byte IV + ciphertext (empty when `copied` says where they are)
    std::optional<CopiedSlot> copied;
    std::uint32_t compressedSize = 0;
    std::uint64_t flags = 0;
    std::uint32_t classId = 0;
    // The file table's field after the name: version 3 writes the offset of the file's metadata
    // record there (PakWriter, from the section it writes); 6+ keeps it on repack.
    std::uint32_t unknown = 0;
    bool compressed = false;
    Bytes metadata;  // dataless gbx record, gbx entries only
};

// A gbx file whose cipher cannot be planned, in a version 3 pak (version 6+ flags such a file
// DontUseDummyWrite instead). The writer goes on planning the others and lists them all.
class UnplannableGbx : public Error {
public:
    UnplannableGbx(const std::string& packPath, std::string reason)
        : Error(packPath + ": " + reason), packPath_(packPath), reason_(std::move(reason)) {}
    const std::string& packPath() const { return packPath_; }
    const std::string& reason() const { return reason_; }

private:
    std::string packPath_, reason_;
};

// Compresses (when it saves space) and encrypts one file's content. gbx content is encoded
// so that the game's parse-driven pipeline decodes it, unless a --raw glob matches. Throws
// UnplannableGbx for a gbx file a version 3 pak cannot hold.
EncodedEntry encodeEntry(ByteSpan content, const std::string& packPath, const std::string& name,
                         const Blowfish& cipher, const PackOptions& options);

// A whole zlib stream (header and adler32) of data at `level`.
Bytes zlibCompress(ByteSpan data, int level, const std::string& name,
                   std::size_t syncFlushEvery = 0);

// A whole zlib stream of data made by libdeflate at `level` (1 to 12).
Bytes libdeflateCompress(ByteSpan data, int level, const std::string& name);

// An IV derived from what it encrypts (SHA-256 of `label`, a zero byte and `data`), so that
// the writer's output depends only on its input.
std::uint64_t ivFor(std::string_view label, ByteSpan data);

bool matchesAnyGlob(const std::vector<std::string>& globs, const std::string& packPath);

// Encrypts plaintext (a multiple of 8 bytes) in place as the game's reader will decode it:
// CBC from `iv`, xoring ivXorPerSegment[k] into the chaining value at the start of segment k.
void encryptSegments(Bytes& data, std::uint64_t iv,
                     const std::vector<std::uint64_t>& ivXorPerSegment, const Blowfish& cipher);
// The same for the bytes of `data` from `from` on (a slot's payload after its IV).
void encryptSegments(Bytes& data, std::size_t from, std::uint64_t iv,
                     const std::vector<std::uint64_t>& ivXorPerSegment, const Blowfish& cipher);

// The flag bits a new encoding of a file sets itself (compression, cipher mode, the per-node
// ivXor switch, public / no-crypt); every other bit of an entry's flags is kept when the file
// is re-encoded. Version 3: the bits the game tests for compression (0x7C).
std::uint64_t encodingFlagBits(std::uint32_t version);

// Version 3: a flag bit the game's writer sets on every file of its pack, plain or gbx, stored or
// compressed (doc/FORMAT.md §2.5); what it means is unknown. pakfs sets it on every file it
// encodes for a version 3 pak.
inline constexpr std::uint64_t kFlagV3Game = 0x02;

// Version 18: whether the game leaves files of this class in the clear ("force no crypt", bit
// 50): the writer does the same (doc/FORMAT.md §3.4; from the game's pack alone).
bool leftInClearByGame(std::uint32_t classId);

// Version 18: files of at most this many bytes are stored, not compressed, as in the game's
// pack (where no larger file is stored; doc/FORMAT.md §6.5).
inline constexpr std::size_t kGameStoredUpTo = 2048;

// A file class of the game's class tree and the end of a file name that gives it.
struct FileClass {
    std::string_view suffix;  // lower case, from its dot: ".vhlsl.txt"
    std::uint32_t classId;
    std::string_view className;
};

// CPlugFile: the class of a plain file no row of fileClasses() names.
inline constexpr std::uint32_t kClassPlugFile = gbx::kClassPlugFile;

// The table classIdForExtension reads (doc/FORMAT.md §2.5 gives each row's evidence).
std::span<const FileClass> fileClasses();

// The pak file table's class ID for a plain file, as the game gives it: the class of the row
// whose suffix ends the name, without regard to case, the longest when several do
// ("Common.VHlsl.Txt" is CPlugFileVHlsl, not CPlugFileText); kClassPlugFile when none does.
std::uint32_t classIdForExtension(const std::string& fileName);

}  // namespace pakfs::archive
