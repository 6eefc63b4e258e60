// SPDX-License-Identifier: GPL-2.0-or-later
// Keys files read line by line (comments, a byte order mark), each line's name, kind and 32 hex
// digits checked, a pack listed twice refused; and the key input each line gives.
#include "archive/pak/KeysFile.hpp"

#include <map>

#include "archive/pak/PackList.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"

namespace pakfs::archive {

namespace {

// Far more than any folder of packs needs; a larger file is not a keys file.
constexpr std::uint64_t kMaxKeysFileSize = 16u << 20;

bool blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The line without its comment: from a '#' at its start or after white space.
std::string_view withoutComment(std::string_view line) {
    for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i] == '#' && (i == 0 || blank(line[i - 1]))) return line.substr(0, i);
    return line;
}

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && blank(line[i])) ++i;
        std::size_t start = i;
        while (i < line.size() && !blank(line[i])) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

}  // namespace

const KeysFileEntry* KeysFile::find(std::string_view packName) const {
    const std::string want = foldCase(packName);
    for (const auto& e : entries)
        if (foldCase(e.name) == want) return &e;
    return nullptr;
}

PakKeyInput keyInputOf(const KeysFileEntry& entry) {
    switch (entry.kind) {
        case KeysFileKind::Key:
            return PakKeyInput{entry.value, false};
        case KeysFileKind::BaseKey:
            return PakKeyInput{keyFromBaseKey(entry.value), false};
        case KeysFileKind::MsKey:
            return PakKeyInput{entry.value, true};
    }
    return {};
}

const char* keysFileKindName(KeysFileKind kind) {
    switch (kind) {
        case KeysFileKind::Key:
            return "key";
        case KeysFileKind::BaseKey:
            return "base-key";
        case KeysFileKind::MsKey:
            return "ms-key";
    }
    return "?";
}

KeysFile parseKeysFile(std::string_view text, const std::string& name) {
    KeysFile out;
    out.name = name;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
    std::map<std::string, std::size_t> seen;                         // folded name -> line
    for (std::size_t number = 1; !text.empty(); ++number) {
        const std::size_t eol = text.find('\n');
        const std::string_view line = withoutComment(text.substr(0, eol));
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        const std::vector<std::string_view> f = fields(line);
        if (f.empty()) continue;  // blank, or a comment
        const std::string at = name + ": line " + std::to_string(number) + ": ";
        if (f.size() != 3)
            throw Error(at + "expected NAME KIND HEX (e.g. \"dedicated base-key " +
                        std::string(32, '0') + "\"), got " + std::to_string(f.size()) +
                        (f.size() == 1 ? " field" : " fields"));
        KeysFileEntry entry;
        entry.name = std::string(f[0]);
        entry.line = number;
        if (auto why = packNameProblem(entry.name))
            throw Error(at + "the pack name \"" + entry.name + "\" " + *why);
        if (isPackFile(entry.name))
            throw Error(at + "NAME is the pack file's name without its extension: \"" +
                        packNameOf(entry.name) + "\", not \"" + entry.name + "\"");
        if (f[1] == "key")
            entry.kind = KeysFileKind::Key;
        else if (f[1] == "base-key")
            entry.kind = KeysFileKind::BaseKey;
        else if (f[1] == "ms-key")
            entry.kind = KeysFileKind::MsKey;
        else
            throw Error(at + "KIND must be key, base-key or ms-key, got \"" + std::string(f[1]) +
                        "\"");
        if (f[2].size() != 32 || !parseHex(f[2], entry.value))
            throw Error(at + "the " + std::string(f[1]) +
                        " must be 32 hex digits (the 16 bytes of a key), got \"" +
                        std::string(f[2]) + "\"");
        auto [it, fresh] = seen.emplace(foldCase(entry.name), number);
        if (!fresh)
            throw Error(at + "pack \"" + entry.name + "\" is listed already on line " +
                        std::to_string(it->second) +
                        " (names are compared without regard to case)");
        out.entries.push_back(std::move(entry));
    }
    return out;
}

KeysFile readKeysFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path.string() + ": is a folder, not a keys file");
    // A FIFO or device given as the file is refused ("not a regular file"), not waited on.
    auto file = InputFile::open(path);
    if (file->size() > kMaxKeysFileSize)
        throw Error(path.string() + ": too large for a keys file (" + std::to_string(file->size()) +
                    " bytes)");
    const Bytes bytes = file->readAt(0, std::size_t(file->size()));
    return parseKeysFile(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path.string());
}

}  // namespace pakfs::archive
