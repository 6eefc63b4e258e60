// SPDX-License-Identifier: GPL-2.0-or-later
// packlist.dat read and written (names and key strings masked by salted MD5s, an HMAC-MD5
// signature), and a pak's key resolved from the key options, a keys file or the packlist.
#include "archive/pak/PackList.hpp"

#include <algorithm>
#include <fstream>

#include "archive/pak/KeysFile.hpp"
#include "common/File.hpp"
#include "common/ShellWord.hpp"

namespace fs = std::filesystem;

namespace pakfs::archive {

namespace {

constexpr std::string_view kNameSalt = "6611992868945B0B59536FC3226F3FD0";
constexpr std::string_view kKeyStringSalt = "B97C1205648A66E04F86A1B5D5AF9862";
constexpr std::string_view kSignatureSalt = "E3554B5828AF14F11AA42A5EAF0AEFC8";
constexpr std::size_t kSignatureSize = 16;
constexpr std::size_t kKeyStringSize = 32;

Md5Digest nameKey(std::uint32_t salt) {
    return md5(std::string(kNameSalt) + std::to_string(salt));
}
Md5Digest keyStringKey(const std::string& name, std::uint32_t salt) {
    return md5(name + std::to_string(salt) + std::string(kKeyStringSalt));
}
Md5Digest signature(ByteSpan data, std::uint32_t salt) {
    Md5Digest key = md5(std::string(kSignatureSalt) + std::to_string(salt));
    return hmacMd5(key, data);
}

}  // namespace

PakKey keyFromKeyString(std::string_view keyString) {
    return md5(std::string(keyString) + "NadeoPak");
}

PakKey PackListEntry::key() const {
    return keyFromKeyString(keyString);
}

const PackListEntry* PackList::find(const std::string& packName) const {
    std::string want = foldCase(packName);
    for (const auto& e : entries)
        if (foldCase(e.name) == want) return &e;
    return nullptr;
}

std::optional<std::string> packNameProblem(std::string_view name) {
    if (name.empty()) return "is empty";
    if (name.find_first_of("/\\") != std::string_view::npos)
        return "holds a path separator ('/' or '\\'): a packlist names packs, not their files";
    if (name.size() > 255) return "is longer than 255 bytes";
    return std::nullopt;
}

const PackListEntry& PackList::putLast(const std::string& packName, bool& added) {
    if (auto why = packNameProblem(packName)) throw Error("pack name \"" + packName + "\" " + *why);
    PackListEntry entry{0, packName, {}};
    added = true;
    for (auto it = entries.begin(); it != entries.end(); ++it)
        if (&*it == find(packName)) {
            entry = *it;
            entries.erase(it);
            added = false;
            break;
        }
    if (added) entry.keyString = newKeyString();
    entries.push_back(std::move(entry));
    return entries.back();
}

std::vector<std::string> PackList::namesAfter(const std::string& packName) const {
    std::vector<std::string> after;
    bool seen = false;
    for (const auto& e : entries) {
        if (seen) after.push_back(e.name);
        seen = seen || &e == find(packName);
    }
    return after;
}

std::string newKeyString() {
    std::uint8_t raw[16];
    randomBytes(raw);
    return hexString(raw, true);
}

PackList parsePackList(ByteSpan data, const std::string& name) {
    auto fail = [&](const std::string& what) -> Error { return Error(name + ": " + what); };
    if (data.size() < 10 + kSignatureSize)
        throw fail("too short for a packlist.dat (" + std::to_string(data.size()) + " bytes)");
    PackList list;
    list.version = data[0];
    if (list.version != 1)
        throw fail("unsupported packlist version " + std::to_string(list.version));
    std::size_t count = data[1];
    list.crc32 = loadLE32(data.data() + 2);
    list.salt = loadLE32(data.data() + 6);
    const std::size_t end = data.size() - kSignatureSize;
    std::size_t at = 10;
    Md5Digest nk = nameKey(list.salt);
    for (std::size_t i = 0; i < count; ++i) {
        if (at + 2 > end) throw fail("entry " + std::to_string(i) + " is truncated");
        PackListEntry e;
        e.flags = data[at];
        std::size_t len = data[at + 1];
        at += 2;
        if (at + len + kKeyStringSize > end)
            throw fail("entry " + std::to_string(i) + " is truncated");
        for (std::size_t k = 0; k < len; ++k) e.name.push_back(char(data[at + k] ^ nk[k % 16]));
        at += len;
        Md5Digest kk = keyStringKey(e.name, list.salt);
        for (std::size_t k = 0; k < kKeyStringSize; ++k)
            e.keyString.push_back(char(data[at + k] ^ kk[k % 16]));
        at += kKeyStringSize;
        list.entries.push_back(std::move(e));
    }
    list.trailingBytes = end - at;
    Md5Digest sig = signature(data.subspan(0, end), list.salt);
    list.signatureValid = std::equal(sig.begin(), sig.end(), data.begin() + std::ptrdiff_t(end));
    return list;
}

PackList readPackList(const fs::path& path) {
    auto file = InputFile::open(path);
    if (file->size() > 1 << 20) throw Error(path.string() + ": too large for a packlist.dat");
    Bytes data = file->readAt(0, std::size_t(file->size()));
    return parsePackList(data, path.string());
}

PackList readPackListOrNew(const fs::path& path) {
    if (fs::exists(path)) return readPackList(path);
    PackList list;
    std::uint8_t salt[4];
    randomBytes(salt);
    list.salt = loadLE32(salt) % 1000000000u;
    return list;
}

Bytes serializePackList(const PackList& list) {
    if (list.entries.size() > 255) throw Error("a packlist.dat holds at most 255 packs");
    Bytes out;
    ByteWriter w(out);
    w.u8(list.version);
    w.u8(std::uint8_t(list.entries.size()));
    w.u32(list.crc32);
    w.u32(list.salt);
    Md5Digest nk = nameKey(list.salt);
    for (const auto& e : list.entries) {
        if (e.name.size() > 255) throw Error("pack name too long for packlist.dat: " + e.name);
        if (e.keyString.size() != kKeyStringSize)
            throw Error("key string of " + e.name + " is not 32 characters");
        w.u8(e.flags);
        w.u8(std::uint8_t(e.name.size()));
        for (std::size_t k = 0; k < e.name.size(); ++k) w.u8(std::uint8_t(e.name[k]) ^ nk[k % 16]);
        Md5Digest kk = keyStringKey(e.name, list.salt);
        for (std::size_t k = 0; k < kKeyStringSize; ++k)
            w.u8(std::uint8_t(e.keyString[k]) ^ kk[k % 16]);
    }
    Md5Digest sig = signature(out, list.salt);
    w.bytes(sig);
    return out;
}

void writePackList(const fs::path& path, const PackList& list) {
    Bytes data = serializePackList(list);
    AtomicOutputFile out(path);
    out.write(data);
    out.commit();
}

std::optional<fs::path> findPackList(const fs::path& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir.empty() ? "." : dir, ec), end; !ec && it != end;
         it.increment(ec))
        if (foldCase(it->path().filename().string()) == "packlist.dat" && it->is_regular_file())
            return it->path();
    return std::nullopt;
}

namespace {
// The extensions of a pack's file name, case-folded.
constexpr std::string_view kPackExtensions[] = {".pack.gbx", ".pak"};
}  // namespace

bool isPackFile(const fs::path& path) {
    const std::string name = foldCase(path.filename().string());
    for (std::string_view ext : kPackExtensions)
        if (name.ends_with(ext)) return true;
    return false;
}

std::optional<fs::path> findPackFile(const fs::path& dir, const std::string& packName) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (isPackFile(it->path()) && foldCase(packNameOf(it->path())) == foldCase(packName))
            return it->path();
    return std::nullopt;
}

std::string packNameOf(const fs::path& pakPath) {
    std::string name = pakPath.filename().string();
    std::string l = foldCase(name);
    for (std::string_view ext : kPackExtensions)
        if (l.size() > ext.size() && l.ends_with(ext))
            return name.substr(0, name.size() - ext.size());
    return pakPath.stem().string();
}

PakKey keyFromBaseKey(const PakKey& baseKey) {
    std::string hex = hexString(baseKey);
    for (char& c : hex) c = char(std::toupper(static_cast<unsigned char>(c)));
    return md5(hex + "NadeoPak");
}

std::string keyOptionWords(const KeyOptions& options) {
    std::string out;
    const auto add = [&](const char* option, const std::string& value) {
        if (!value.empty()) out += std::string(" ") + option + " " + shellWord(value);
    };
    add("--key", options.keyHex);
    add("--key-file", options.keyFile.string());
    add("--packlist", options.packList.string());
    add("--base-key", options.baseKeyHex);
    add("--ms-key", options.msKeyHex);
    add("--keys", options.keysFile.string());
    return out;
}

PakKey parseKeyOption(const std::string& hex, const std::string& option) {
    PakKey key{};
    if (!parseHex(hex, key))
        throw UsageError(option + " must be 32 hex digits (the 16 bytes of a key), got \"" + hex +
                         "\"");
    return key;
}

namespace {

int keyOptionsGiven(const KeyOptions& options) {
    return !options.keyHex.empty() + !options.keyFile.empty() + !options.baseKeyHex.empty() +
           !options.msKeyHex.empty();
}

// The key the keys file (--keys) gives the pak's pack name, if it names it.
std::optional<PakKeyInput> keyFromKeysFile(const fs::path& pakPath, const KeyOptions& options) {
    if (options.keysFile.empty()) return std::nullopt;
    checkKeyOptions(options);
    const KeysFile keys = readKeysFile(options.keysFile);
    if (const KeysFileEntry* entry = keys.find(packNameOf(pakPath))) return keyInputOf(*entry);
    return std::nullopt;
}

// A pak that no entry of `list` names: the first entry whose key its header decrypts with (the
// header MD5 fits), with a note saying which; nullopt when none does or it cannot be told.
std::optional<PakKey> keyThatFits(const fs::path& pakPath, const PackList& list,
                                  const fs::path& listPath, std::vector<std::string>* warnings) {
    std::error_code ec;
    if (!fs::is_regular_file(pakPath, ec)) return std::nullopt;  // a pak yet to be written
    for (const auto& entry : list.entries) {
        const PakKey key = entry.key();
        if (!PakIndex::keyFits(pakPath, key)) continue;
        if (warnings)
            warnings->push_back(listPath.string() + " has no entry for pack \"" +
                                packNameOf(pakPath) + "\" (" + pakPath.string() +
                                "): opened with the key of its entry \"" + entry.name +
                                "\", which its header MD5 fits");
        return key;
    }
    return std::nullopt;
}

}  // namespace

void checkKeyOptions(const KeyOptions& options) {
    const int given = keyOptionsGiven(options);
    if (given > 1)
        throw UsageError("give one of --key, --key-file, --base-key and --ms-key, not several");
    if (given > 0 && !options.keysFile.empty())
        throw UsageError(
            "--keys gives each pack its own key: give it without --key, --key-file, --base-key "
            "and --ms-key");
}

PakKeyInput resolvePakKey(const fs::path& pakPath, const KeyOptions& options,
                          std::vector<std::string>* warnings) {
    const int given = keyOptionsGiven(options);
    checkKeyOptions(options);
    if (auto fromFile = keyFromKeysFile(pakPath, options)) return *fromFile;
    if (!options.baseKeyHex.empty())
        return PakKeyInput{keyFromBaseKey(parseKeyOption(options.baseKeyHex, "--base-key")), false};
    if (!options.msKeyHex.empty())
        return PakKeyInput{parseKeyOption(options.msKeyHex, "--ms-key"), true};
    std::uint32_t version = 3;
    try {
        version = readPakVersion(*InputFile::open(pakPath));
    } catch (const Error&) {
        // Not readable or not a pak: opening it says so.
    }
    if (version < 6 || given > 0) return PakKeyInput{resolveKey(pakPath, options, warnings)};
    // Version 6+: a packlist.dat entry is used when there is one; none is no error.
    fs::path listPath = options.packList;
    if (listPath.empty()) {
        auto found = findPackList(pakPath.parent_path());
        if (!found) return {};
        listPath = *found;
    }
    PackList list = readPackList(listPath);
    const PackListEntry* entry = list.find(packNameOf(pakPath));
    if (!entry) {
        if (auto key = keyThatFits(pakPath, list, listPath, warnings)) return PakKeyInput{*key};
        return {};
    }
    return PakKeyInput{entry->key()};
}

void refuseMsKeyForWriting(const KeyOptions& options) {
    if (!options.msKeyHex.empty())
        throw UsageError(
            "--ms-key cannot be used to write a pack (the key would depend on the checksum of "
            "what it encrypts); give --key or --base-key");
}

PakKey resolveKey(const fs::path& pakPath, const KeyOptions& options,
                  std::vector<std::string>* warnings) {
    PakKey key{};
    if (auto fromFile = keyFromKeysFile(pakPath, options)) {
        if (fromFile->masterServer)
            throw Error(options.keysFile.string() + ": pack \"" + packNameOf(pakPath) +
                        "\" has an ms-key, which needs a version 6+ pack's contents checksum "
                        "(it cannot open a version 3 pak or write a pack)");
        return *fromFile->key;
    }
    if (!options.keyHex.empty()) return parseKeyOption(options.keyHex, "--key");
    if (!options.keyFile.empty()) {
        auto f = InputFile::open(options.keyFile);
        if (f->size() == 16) {
            Bytes raw = f->readAt(0, 16);
            std::copy(raw.begin(), raw.end(), key.begin());
            return key;
        }
        if (f->size() > 256) throw Error(options.keyFile.string() + ": not a key file");
        Bytes text = f->readAt(0, std::size_t(f->size()));
        std::string s(text.begin(), text.end());
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
        if (!parseHex(s, key))
            throw Error(options.keyFile.string() +
                        ": a key file holds 16 raw bytes or 32 hex digits");
        return key;
    }
    fs::path listPath = options.packList;
    if (listPath.empty()) {
        auto found = findPackList(pakPath.parent_path());
        if (!found)
            throw Error(pakPath.string() +
                        (options.keysFile.empty()
                             ? ": no key given and no packlist.dat beside it (use --key, "
                               "--key-file or --packlist)"
                             : ": " + options.keysFile.string() + " has no line for pack \"" +
                                   packNameOf(pakPath) +
                                   "\" and there is no packlist.dat beside "
                                   "it"));
        listPath = *found;
    }
    PackList list = readPackList(listPath);
    if (!list.signatureValid && warnings)
        warnings->push_back(listPath.string() +
                            ": signature does not match (file edited or damaged)");
    std::string pack = packNameOf(pakPath);
    const PackListEntry* entry = list.find(pack);
    if (entry) return entry->key();
    if (auto fits = keyThatFits(pakPath, list, listPath, warnings)) return *fits;
    std::error_code ec;
    throw Error(listPath.string() + ": has no entry for pack \"" + pack + "\" (" +
                pakPath.string() + ")" +
                (fs::is_regular_file(pakPath, ec)
                     ? ", and the key of none of its entries fits the pak's header"
                     : ""));
}

}  // namespace pakfs::archive
