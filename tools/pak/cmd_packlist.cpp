// SPDX-License-Identifier: GPL-2.0-or-later
// pak packlist ls / add
#include <cstdio>
#include <filesystem>

#include "archive/pak/PackList.hpp"
#include "common/File.hpp"
#include "common/FileLock.hpp"
#include "tools/pak/Commands.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

std::optional<std::string> keyStringOf(const std::filesystem::path& pakPath, const KeyOptions& keys,
                                       const PakKey& key) {
    try {
        std::filesystem::path listPath = keys.packList;
        if (listPath.empty()) {
            auto found = findPackList(pakPath.parent_path());
            if (!found) return std::nullopt;
            listPath = *found;
        }
        const PackList list = readPackList(listPath);
        const PackListEntry* entry = list.find(packNameOf(pakPath));
        if (entry && entry->key() == key) return entry->keyString;
    } catch (const Error&) {
        // No readable packlist: no key string to offer.
    }
    return std::nullopt;
}

void adviseHowItOpens(const std::filesystem::path& out, const PakKey& key,
                      const std::optional<std::string>& keyString) {
    const std::string pack = packNameOf(out);
    std::optional<std::filesystem::path> listPath;
    std::string problem;
    try {
        listPath = findPackList(out.parent_path());
        if (listPath && !out.has_parent_path()) listPath = listPath->filename();
        if (!listPath) {
            problem = "there is no packlist.dat beside it";
        } else {
            const PackList list = readPackList(*listPath);
            const PackListEntry* entry = list.find(pack);
            if (entry && entry->key() == key) return;
            problem = listPath->string() + (entry ? " gives pack " + entry->name + " another key"
                                                  : " has no entry for pack " + pack);
        }
    } catch (const Error& e) {
        problem = e.what();
    }
    const std::string list =
        listPath ? listPath->string() : (out.parent_path() / "packlist.dat").string();
    std::string add = "pak packlist add " + list + " " + pack;
    if (keyString) add += " --key-string " + *keyString;
    std::fprintf(stderr,
                 "pak: note: %s is not opened by name (%s): open it with --key %s (e.g. pak check "
                 "%s --key %s)%s%s\n",
                 out.c_str(), problem.c_str(), hexString(key).c_str(), out.c_str(),
                 hexString(key).c_str(), keyString ? ", or add its entry: " : "",
                 keyString ? add.c_str() : "");
}

namespace {

// A key string as `pak packlist ls` shows it: as it is when it is hex digits, else its bytes
// in hex after "hex:".
std::string shownKeyString(const std::string& keyString) {
    bool printable = true;
    for (char c : keyString) printable = printable && std::isxdigit(static_cast<unsigned char>(c));
    if (printable) return keyString;
    return "hex:" +
           hexString({reinterpret_cast<const std::uint8_t*>(keyString.data()), keyString.size()});
}

void listPackList(const std::string& file) {
    PackList list = readPackList(file);
    std::printf("# version %u, %zu packs, salt %u, signature %s\n", list.version,
                list.entries.size(), list.salt, list.signatureValid ? "valid" : "INVALID");
    for (const auto& e : list.entries)
        std::printf("%s\t%s\t%s\n", e.name.c_str(), shownKeyString(e.keyString).c_str(),
                    hexString(e.key()).c_str());
    if (!list.signatureValid)
        std::fprintf(stderr, "pak: warning: %s: signature does not match\n", file.c_str());
    if (list.trailingBytes)
        std::fprintf(stderr, "pak: warning: %s: %zu unexplained bytes before the signature\n",
                     file.c_str(), list.trailingBytes);
}

// What `pak packlist add` is given.
struct PacklistAddArgs {
    std::string file, name, keyString;
    bool replace = false;
};

// The pack name NAME gives: refused with a folder or a name the game cannot use; a file name
// loses its extension, with a note.
std::string packNameOfArg(const std::string& name) {
    std::string pack = name;
    auto refuse = [&](const std::string& why) { throw UsageError("NAME \"" + name + "\" " + why); };
    // Before the extension comes off, which would take a folder off with it.
    if (name.find_first_of("/\\") != std::string::npos) refuse(*packNameProblem(pack));
    // NAME is the pack's name, not its file name: "Bar.pak" would add a pack named
    // "Bar.pak", which no pak file of that name would ever be looked up as.
    if (std::string stripped = packNameOf(pack); stripped != pack) {
        std::fprintf(stderr,
                     "pak: note: pack name \"%s\" (\"%s\" is a file name; a pack is "
                     "named without its extension)\n",
                     stripped.c_str(), pack.c_str());
        pack = stripped;
    }
    if (auto why = packNameProblem(pack)) refuse(*why);
    return pack;
}

// The old file is the only record of the old key: kept as FILE.bak before it is replaced.
void backUpPackList(const std::string& file, const std::string& pack) {
    const std::string backup = file + ".bak";
    auto in = InputFile::open(file);
    Bytes old = in->readAt(0, static_cast<std::size_t>(in->size()));
    AtomicOutputFile out(backup);
    out.write(old);
    out.commit();
    std::fprintf(stderr, "pak: replacing the key of pack \"%s\"; the old file is %s\n",
                 pack.c_str(), backup.c_str());
}

void addToPackList(const PacklistAddArgs& a) {
    std::string pack = packNameOfArg(a.name);
    std::string ks = a.keyString;
    if (ks.empty()) ks = newKeyString();
    std::uint8_t check[16];
    if (!parseHex(ks, check))
        throw UsageError("--key-string must be 32 hex digits, got \"" + ks + "\"");

    // Read, changed and written under its lock: two edits never lose one another's.
    const WriterLock lock = WriterLock::acquire(a.file, false);
    PackList list = readPackListOrNew(a.file);
    PackListEntry* existing = nullptr;
    for (auto& e : list.entries)
        if (&e == list.find(pack)) existing = &e;
    if (existing && !a.replace)
        throw Error(a.file + ": already has pack \"" + existing->name + "\" (key string " +
                    existing->keyString +
                    "); nothing changed. Its paks open only with that key: pass "
                    "--replace to give it a new one (the old file is kept as " +
                    a.file + ".bak)");
    if (existing) {
        backUpPackList(a.file, existing->name);
        existing->keyString = ks;
        pack = existing->name;  // as the file keeps it, not as typed
    } else {
        list.entries.push_back({0, pack, ks});
    }
    writePackList(a.file, list);
    std::printf("%s\t%s\t%s\n", pack.c_str(), ks.c_str(), hexString(keyFromKeyString(ks)).c_str());
}

}  // namespace

void addPacklistCommands(CLI::App& app, int& exitCode) {
    auto* group =
        app.add_subcommand("packlist", "Read and edit packlist.dat (pack names and keys)");
    group->require_subcommand(1);
    {
        auto* cmd = group->add_subcommand("ls", "Show each pack's name, key string and key");
        auto file = std::make_shared<std::string>();
        cmd->add_option("FILE", *file, "The packlist.dat")->required();
        cmd->callback([file, &exitCode] {
            listPackList(*file);
            exitCode = kExitOk;
        });
    }
    auto* cmd = group->add_subcommand(
        "add", "Add a pack's entry (creating the file if needed) and re-sign it");
    cmd->footer(
        "A name the file already holds (matched regardless of case, as the game matches) is\n"
        "refused unless --replace, which keeps the old file as FILE.bak.");
    auto args = std::make_shared<PacklistAddArgs>();
    cmd->add_option("FILE", args->file, "The packlist.dat")->required();
    cmd->add_option("NAME", args->name,
                    "Pack name (file name without .pak; no folder: '/' and '\\' are refused)")
        ->required();
    cmd->add_option("--key-string", args->keyString,
                    "The 32-hex-digit key string (default: a new random one)");
    cmd->add_flag("--replace", args->replace,
                  "Replace the key of a pack the file already lists (the old file is kept "
                  "as FILE.bak)");
    cmd->callback([args] { addToPackList(*args); });
}

}  // namespace pakfs::cli
