// SPDX-License-Identifier: GPL-2.0-or-later
// pak packlist ls / add
#include <cstdio>
#include <filesystem>

#include "archive/PackList.hpp"
#include "tools/pak/Commands.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

void addPacklistCommands(CLI::App& app, int& exitCode) {
    auto* group =
        app.add_subcommand("packlist", "Read and edit packlist.dat (pack names and keys)");
    group->require_subcommand(1);
    {
        auto* cmd = group->add_subcommand("ls", "Show each pack's name, key string and key");
        auto file = std::make_shared<std::string>();
        cmd->add_option("FILE", *file, "The packlist.dat")->required();
        cmd->callback([=, &exitCode] {
            PackList list = readPackList(*file);
            std::printf("# version %u, %zu packs, salt %u, signature %s\n", list.version,
                        list.entries.size(), list.salt, list.signatureValid ? "valid" : "INVALID");
            for (const auto& e : list.entries) {
                bool printable = true;
                for (char c : e.keyString)
                    printable = printable && std::isxdigit(static_cast<unsigned char>(c));
                std::string ks =
                    printable
                        ? e.keyString
                        : "hex:" +
                              hexString({reinterpret_cast<const std::uint8_t*>(e.keyString.data()),
                                         e.keyString.size()});
                std::printf("%s\t%s\t%s\n", e.name.c_str(), ks.c_str(), hexString(e.key()).c_str());
            }
            if (!list.signatureValid)
                std::fprintf(stderr, "pak: warning: %s: signature does not match\n", file->c_str());
            if (list.trailingBytes)
                std::fprintf(stderr,
                             "pak: warning: %s: %zu unexplained bytes before the signature\n",
                             file->c_str(), list.trailingBytes);
            exitCode = kExitOk;
        });
    }
    {
        auto* cmd = group->add_subcommand(
            "add", "Add or replace a pack's entry (creating the file if needed) and re-sign it");
        auto file = std::make_shared<std::string>();
        auto name = std::make_shared<std::string>();
        auto keyString = std::make_shared<std::string>();
        cmd->add_option("FILE", *file, "The packlist.dat")->required();
        cmd->add_option("NAME", *name, "Pack name (file name without .pak)")->required();
        cmd->add_option("--key-string", *keyString,
                        "The 32-hex-digit key string (default: a new random one)");
        cmd->callback([=] {
            PackList list;
            if (std::filesystem::exists(*file)) {
                list = readPackList(*file);
            } else {
                std::uint8_t salt[4];
                randomBytes(salt);
                list.salt = loadLE32(salt) % 1000000000u;
            }
            std::string ks = *keyString;
            if (ks.empty()) {
                std::uint8_t raw[16];
                randomBytes(raw);
                ks = hexString(raw, true);
            }
            std::uint8_t check[16];
            if (!parseHex(ks, check))
                throw Error("--key-string must be 32 hex digits, got \"" + ks + "\"");
            if (name->empty() || name->size() > 255)
                throw Error("pack name must be 1 to 255 bytes");
            PackListEntry* existing = nullptr;
            for (auto& e : list.entries)
                if (&e == list.find(*name)) existing = &e;
            if (existing) {
                existing->keyString = ks;
            } else {
                list.entries.push_back({0, *name, ks});
            }
            writePackList(*file, list);
            std::printf("%s\t%s\t%s\n", name->c_str(), ks.c_str(),
                        hexString(keyFromKeyString(ks)).c_str());
        });
    }
}

}  // namespace pakfs::cli
