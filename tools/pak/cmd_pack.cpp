// SPDX-License-Identifier: GPL-2.0-or-later
// pak pack: a pak built from a folder tree.
#include <cstdio>

#include "archive/write/PakWriter.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

namespace {

// What `pak pack` is given.
struct PackArgs {
    KeyOptions keys;
    std::string src, out, base;
    PackOptions options;
    std::string headerKey = "both";
    bool dataPublic = false;
    bool quiet = false;
};

// SRCDIR, OUT and how files are encoded.
void addSourceOptions(CLI::App* cmd, PackArgs& a) {
    cmd->add_option("SRCDIR", a.src,
                    "Folder to pack (without OUT, its temporary files and the packlist.dat "
                    "OUT's key is looked up in, when they are in it)")
        ->required();
    cmd->add_option("OUT", a.out,
                    "The .pak file to write (written to a temp file, then renamed); not a folder")
        ->required();
    cmd->add_option(
           "--level", a.options.level,
           "zlib level 0-9 (default 6); 0 stores files uncompressed, except gbx files with "
           "chunks no reader knows, which always get a zlib stream (stored blocks at "
           "level 0) so that its Adler-32 proves them")
        ->check(CLI::Range(0, 9));
    cmd->add_option("-j,--jobs", a.options.jobs,
                    "Threads encoding files (default: one per CPU pak may use: its affinity, a "
                    "cgroup v2 quota); the pak is the same "
                    "for any number")
        ->check(CLI::Range(1, 256));
    cmd->add_option("--raw", a.options.rawGlobs,
                    "Store gbx files matching GLOB without the per-node ivXor: in version 3 "
                    "the game will not read them right; in version 6+ they are flagged "
                    "DontUseDummyWrite, which it reads right; may be repeated. In version "
                    "3 a gbx file whose cipher cannot be planned stops the pack: every such "
                    "file is listed in one error, and nothing is written");
    cmd->add_option("--base", a.base,
                    "Original pak: files whose path and content are unchanged are copied "
                    "as their original encrypted bytes (same key)");
    cmd->add_flag("--fold-skippable", a.options.gbxRules.nodesInSkippableChunksMixIvXor,
                  "Plan gbx files so that nodes read inside skippable (\"PIKS\") chunks mix the "
                  "cipher, as the GBX wiki page says (default: they do not, as GBX.NET and the "
                  "2020 game's code say; see pak(1)). gbx files with chunks no reader knows are "
                  "planned from the node scan and always stored with zlib");
}

// --version and the version 6+ header's fields.
void addVersionOptions(CLI::App* cmd, PackArgs& a) {
    cmd->add_option("--version", a.options.version,
                    "Pak version: 3 (TrackMania Forever .pak, the default) or 6 to 18 "
                    "(ManiaPlanet / Trackmania 2020 .Pack.Gbx; 18 compresses with LZ4 and "
                    "encrypts with 8-round Blowfish, 12+ chain IVs as the game does)")
        ->check(CLI::Range(3, 18));
    cmd->add_option("--header-key", a.headerKey,
                    "Version 6+: how the private header is encrypted: private (the pack key), "
                    "default (the default header key: lists without a key), both (the two "
                    "xored, as retail packs), none (in the clear)")
        ->check(CLI::IsMember({"private", "default", "both", "none"}));
    cmd->add_flag("--data-public", a.dataPublic,
                  "Version 6+: clear the header's \"data private\" flag (bit 2)");
    cmd->add_option("--public", a.options.publicGlobs,
                    "Version 6+: store files matching GLOB in the clear, flagged public "
                    "(readable without a key); may be repeated");
    PackHeaderFields& h = a.options.header;
    cmd->add_option("--author-login", h.authorLogin, "Version 7+: author login");
    cmd->add_option("--author-nick", h.authorNick, "Version 7+: author nickname");
    cmd->add_option("--author-zone", h.authorZone, "Version 7+: author zone");
    cmd->add_option("--comment", h.comment, "Version 7+: comment");
    cmd->add_option("--title-id", h.titleId, "Version 12+: title ID");
}

// The key to write with: version 6+ takes a key given or found, version 3 the one resolveKey
// finds (a packlist entry named like OUT).
PakKey packKey(const PackArgs& a) {
    if (a.options.version < 6) return resolveKey(a.out, a.keys);
    PakKeyInput k = resolvePakKey(a.out, a.keys);
    if (!k.key) throw Error(a.out + ": no key given (--key, --key-file or --base-key)");
    if (k.masterServer)  // from --keys (--ms-key itself is refused as the options are read)
        throw UsageError(a.keys.keysFile.string() + " gives pack \"" + packNameOf(a.out) +
                         "\" an ms-key, which cannot write a pack (the key would depend on the "
                         "checksum of what it encrypts); give it a key or base-key");
    return *k.key;
}

void runPack(const PackArgs& a) {
    checkPackOutput(a.out);  // before any key or file is read
    if (a.options.version > 3 && a.options.version < 6)
        throw UsageError("--version " + std::to_string(a.options.version) +
                         ": pak writes versions 3 and 6 to 18");
    refuseMsKeyForWriting(a.keys);
    const PakKey key = packKey(a);
    PackOptions opts = a.options;
    opts.header.headerFlags = (a.headerKey == "private"   ? kHeaderPrivate
                               : a.headerKey == "default" ? kHeaderDefaultKey
                               : a.headerKey == "both"    ? kHeaderPrivate | kHeaderDefaultKey
                                                          : 0) |
                              (a.dataPublic ? 0 : kHeaderDataPrivate);
    opts.base = a.base;
    opts.warn = warn;
    // The packlist.dat OUT's key is looked up in is never packed (writePak leaves OUT out).
    if (!a.keys.packList.empty()) opts.leaveOut.push_back(a.keys.packList);
    if (auto list = findPackList(std::filesystem::path(a.out).parent_path()))
        opts.leaveOut.push_back(*list);
    Progress progress(a.quiet);
    opts.progress = progress.callback();
    PackResult r = writePak(a.src, a.out, key, opts);
    std::fprintf(stderr,
                 "%s: %zu %s in %zu %s, %zu compressed, %zu copied from base, %llu "
                 "-> %llu bytes\n",
                 a.out.c_str(), r.files, r.files == 1 ? "file" : "files", r.folders,
                 r.folders == 1 ? "folder" : "folders", r.compressed, r.copiedFromBase,
                 (unsigned long long)r.bytesIn, (unsigned long long)r.bytesOut);
    adviseHowItOpens(a.out, key, keyStringOf(a.out, a.keys, key));
}

}  // namespace

void addPackCommands(CLI::App& app, int& /*exitCode*/) {
    auto* cmd = app.add_subcommand(
        "pack", "Build a pak (version 3, or 6 to 18 with --version) from a folder tree");
    cmd->footer(
        "The key comes from --key, --key-file or --base-key, or from the packlist entry named\n"
        "like OUT.");
    auto args = std::make_shared<PackArgs>();
    addSourceOptions(cmd, *args);
    addVersionOptions(cmd, *args);
    cmd->add_flag("-L,--dereference", args->options.followLinks,
                  "Follow symbolic links in SRCDIR, to files and folders, also out of it "
                  "(default: they are left out, named in one warning). A link to a folder "
                  "that holds it, or to nothing, is an error");
    cmd->add_flag("-q,--quiet", args->quiet, "No progress line");
    addKeyOptions(cmd, args->keys);
    cmd->callback([args] { runPack(*args); });
}

}  // namespace pakfs::cli
