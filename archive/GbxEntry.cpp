// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/GbxEntry.hpp"

namespace pakfs::archive {

Bytes decodeGbxEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry) {
    // Until the gbx reader drives the pipeline, refuse rather than output bytes that may be
    // wrong: the per-node ivXor changes the cipher state while the file is parsed.
    throw Error(pak->name() + ": " + entry.path +
                ": gbx entry cannot be decoded byte-exactly yet (needs the gbx pipeline)");
}

GbxEncoding planGbxEntry(ByteSpan content, ByteSpan payload, bool compressed,
                         const std::string& packPath) {
    (void)content;
    (void)payload;
    (void)compressed;
    throw Error(packPath + ": gbx files cannot be packed exactly yet (needs the gbx pipeline); "
                           "use --raw to store them anyway");
}

}  // namespace pakfs::archive
