// SPDX-License-Identifier: GPL-2.0-or-later
// packlist.dat edits: a list read from the fuzz bytes (or a new one when they are no list),
// then a sequence of edits as `pak packlist add` (with and without --replace) and `pak commit
// --patch --packlist` make them, besides removals and queries, then written and read back.
// Every step must succeed or throw Error; a list written must read back with the same salt and
// entries, signed, with nothing after its entries.
//
// Input: u16 length N, N bytes of packlist.dat, then edits: an operation byte, a name (a length
// byte and its bytes) and what the operation reads after it.
#include <algorithm>
#include <string>

#include "archive/pak/PackList.hpp"
#include "fuzz/FuzzUtil.hpp"

using namespace pakfs;
using fuzz::Input;

namespace {

constexpr std::size_t kMaxEdits = 64;

// A key string of the input's bytes: 32 hex digits (as `packlist add` takes one), or, on the
// high bit of the first byte, 32 bytes of any kind (as a damaged list may hold).
std::string keyString(Input& in) {
    const std::uint8_t mode = in.byte();
    std::string raw = in.bytes(mode & 0x80 ? 32 : 16);
    raw.resize(mode & 0x80 ? 32 : 16, '\0');
    if (mode & 0x80) return raw;
    return hexString({reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()}, true);
}

// `pak packlist add FILE NAME [--key-string KS] [--replace]`, as cmd_packlist does it.
void add(archive::PackList& list, const std::string& name, const std::string& ks, bool replace) {
    if (archive::packNameProblem(name)) throw Error("bad name");
    const std::string pack = archive::packNameOf(name);
    if (archive::packNameProblem(pack)) throw Error("bad name");
    archive::PackListEntry* existing = nullptr;
    for (auto& e : list.entries)
        if (&e == list.find(pack)) existing = &e;
    if (existing && !replace) throw Error("already listed");
    if (existing)
        existing->keyString = ks;
    else
        list.entries.push_back({0, pack, ks});
}

bool sameEntries(const archive::PackList& a, const archive::PackList& b) {
    if (a.entries.size() != b.entries.size()) return false;
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const auto& x = a.entries[i];
        const auto& y = b.entries[i];
        if (x.flags != y.flags || x.name != y.name || x.keyString != y.keyString) return false;
    }
    return true;
}

void checkReadBack(const archive::PackList& list, const archive::PackList& back) {
    if (back.salt != list.salt || back.version != list.version || back.crc32 != list.crc32 ||
        !back.signatureValid || back.trailingBytes != 0 || !sameEntries(list, back))
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 65536) return 0;
    Input in(data, size);
    const std::size_t listSize = std::size_t(in.byte()) | std::size_t(in.byte()) << 8;
    const std::string listBytes = in.bytes(listSize);
    archive::PackList list;
    try {
        list = archive::parsePackList(
            {reinterpret_cast<const std::uint8_t*>(listBytes.data()), listBytes.size()},
            "packlist.dat");
    } catch (const Error&) {
        list = archive::PackList{};  // as readPackListOrNew starts one, without the random salt
        list.salt = std::uint32_t(listSize) * 7919u;
    }
    for (std::size_t n = 0; n < kMaxEdits && !in.done(); ++n) {
        const std::uint8_t op = in.byte();
        const std::string name = in.bytes(in.byte() % 300);
        try {
            switch (op % 8) {
                case 0:
                case 1:
                    add(list, name, keyString(in), op % 8 == 1);
                    break;
                case 2: {  // --patch --packlist: the entry last, made when it is not there
                    bool added = false;
                    const std::size_t before = list.entries.size();
                    const auto& e = list.putLast(name, added);
                    if (added != (list.entries.size() == before + 1) ||
                        &e != &list.entries.back() || foldCase(e.name) != foldCase(name))
                        std::abort();
                    if (added) list.entries.back().keyString = keyString(in);  // not random
                    break;
                }
                case 3:  // a removal, as the game's list loses a pack
                    if (!list.entries.empty())
                        list.entries.erase(list.entries.begin() +
                                           std::ptrdiff_t(in.byte() % list.entries.size()));
                    break;
                case 4:
                    (void)list.namesAfter(name);
                    (void)list.find(name);
                    break;
                case 5:
                    if (!list.entries.empty()) {
                        const std::size_t i = in.byte() % list.entries.size();
                        list.entries[i].flags = in.byte();
                    }
                    break;
                case 6:
                    for (const auto& e : list.entries) (void)e.key();
                    break;
                case 7: {  // written and read back in memory, mid-way
                    Bytes out = archive::serializePackList(list);
                    checkReadBack(list, archive::parsePackList(out, "packlist.dat"));
                    break;
                }
            }
        } catch (const Error&) {
        }
    }
    // Written as `pak packlist add` writes it, and read back.
    try {
        archive::writePackList(fuzz::scratchPath(), list);
    } catch (const Error&) {
        return 0;  // a list the format cannot hold (over 255 packs, a name over 255 bytes)
    }
    checkReadBack(list, archive::readPackList(fuzz::scratchPath()));
    return 0;
}
