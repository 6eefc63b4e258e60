// SPDX-License-Identifier: GPL-2.0-or-later
// What holds for entries encrypted in counter mode: their proof, the refusal, how they are shown.
#pragma once

#include <string>

#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// Version 6+ entries encrypted in counter mode (PakEntry::counterMode; DecryptStage decrypts
// them, CipherMode::Counter). Nothing in the file table covers their plaintext (the v14+ slot
// MD5 covers the ciphertext), so only zlib's Adler-32 proves a decode; stored and LZ4 ones are
// read only when unverified bytes are asked for (--unverified, -o unverified).
bool counterModeProven(const PakEntry& entry);
// The kind `pak ls -l`, `pak check` and the mount's user.pak.cipher show: "counter" (zlib's
// Adler-32 proves it) or "counter:unverified".
const char* counterModeKind(const PakEntry& entry);
// How a counter-mode entry's bytes stand, for a line after "pak: path: ".
std::string counterModeDetail(const PakEntry& entry);
// Before a counter-mode entry is read: throws Error naming the pak, the entry and the options
// that read it when nothing proves it and `unverified` is false, or when its IV and data do not
// fit its v17+ slot (nothing else checks a stored entry's sizes).
void checkCounterModeRead(const PakIndex& pak, const PakEntry& entry, bool unverified);

}  // namespace pakfs::archive
