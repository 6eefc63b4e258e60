// SPDX-License-Identifier: GPL-2.0-or-later
// pak gbx info, pak gbx thumbnail
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"
#include "desktop/ScaledPicture.hpp"
#include "gbx/Describe.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/MapFacts.hpp"
#include "gbx/pictures/Pictures.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

namespace pakfs::cli {

Bytes readGbxFileOnDisk(const std::string& path) {
    // InputFile names the file and the reason: "no such file", "is a folder, not a file", ...
    auto file = InputFile::open(path);
    if (file->size() > (1u << 30)) throw Error(path + ": too large for a gbx file");
    return file->readAt(0, static_cast<std::size_t>(file->size()));
}

namespace {

struct GbxInfoArgs {
    std::string file;
    bool nodes = false;
    bool json = false;
    archive::KeyOptions keys;
};

// FILE on disk, or PAK:PATH: an entry of that pak. `pak` is set for PAK:PATH only.
struct Target {
    std::shared_ptr<const archive::PakIndex> pak;
    const archive::PakEntry* entry = nullptr;
};

Target resolveTarget(const std::string& file, const archive::KeyOptions& keys) {
    auto colon = file.find(':');
    std::error_code ec;
    const auto onDisk = std::filesystem::status(file, ec);
    // A FIFO or device is read as a file, which refuses it ("not a regular file").
    if ((std::filesystem::exists(onDisk) && !std::filesystem::is_directory(onDisk)) ||
        colon == std::string::npos || !std::filesystem::is_regular_file(file.substr(0, colon)))
        return {};
    std::string inner = file.substr(colon + 1);
    Target t;
    t.pak = openAndWarn(file.substr(0, colon), keys);
    t.entry = findEntry(*t.pak, inner);
    if (!t.entry) throw Error(t.pak->name() + ": no file \"" + inner + "\" in the pak");
    return t;
}

// The whole file: from disk, or the entry decoded from the pak (only when its bytes are proven).
Bytes readTarget(const GbxInfoArgs& args) {
    Target t = resolveTarget(args.file, args.keys);
    return t.pak ? archive::readEntry(t.pak, *t.entry) : readGbxFileOnDisk(args.file);
}

// The header alone: of an entry it decodes before any node is read, so entries that cannot be
// decoded whole have one too. Errors name the file.
gbx::GbxHeader readTargetHeader(const std::string& file, const archive::KeyOptions& keys) {
    Target t = resolveTarget(file, keys);
    if (t.pak) return archive::readGbxEntryRefs(t.pak, *t.entry).header;
    Bytes data = readGbxFileOnDisk(file);
    MemorySource src(data);
    try {
        return gbx::readHeader(src);
    } catch (const Error& e) {
        throw Error(file + ": " + e.what());
    }
}

int runGbxInfo(const GbxInfoArgs& args) {
    Bytes data = readTarget(args);
    MemorySource src(data);
    gbx::ReadOptions opts;
    opts.readNodes = args.nodes;
    gbx::GbxFile f = gbx::readGbxPartial(src, nullptr, opts);
    gbx::DescribeOptions dopts;
    dopts.nodes = args.nodes;
    if (args.json) {
        nlohmann::json j = gbx::describeJson(f, dopts);
        j["file"] = args.file;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "file: " << args.file << "\n" << gbx::describeText(f, dopts);
    }
    std::cout.flush();
    if (f.failure) {
        std::fprintf(stderr, "pak: %s: stopped in the %s: %s\n", args.file.c_str(),
                     gbx::stageName(f.failure->stage), f.failure->message.c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

struct ThumbnailArgs {
    std::string file;
    std::string out;
    bool asStored = false;
    std::uint32_t size = 0;  // --size: a PNG whose longer side is at most this
    archive::KeyOptions keys;
};

int runGbxThumbnail(const ThumbnailArgs& args) {
    const bool toStdout = args.out.empty() || args.out == "-";
    if (toStdout && ::isatty(STDOUT_FILENO))
        throw UsageError(
            "standard output is a terminal: a picture is binary; give -o FILE or "
            "redirect standard output");
    if (!toStdout) {
        // The file read (for PAK:PATH, the pak) is never the one replaced.
        std::error_code ec;
        for (const std::string& input : {args.file, args.file.substr(0, args.file.find(':'))})
            if (std::filesystem::equivalent(args.out, input, ec))
                throw UsageError("-o " + args.out + " is " + input +
                                 ", the file read: the picture would replace it");
    }
    gbx::GbxHeader header = readTargetHeader(args.file, args.keys);
    const auto& classes = gbx::ClassRegistry::builtin();
    std::optional<gbx::Picture> picture;
    try {
        picture = gbx::findPicture(header, classes);
    } catch (const Error& e) {
        throw Error(args.file + ": " + e.what());
    }
    if (!picture) throw Error(args.file + ": " + gbx::whyNoPicture(header, classes));
    gbx::PictureFile file;
    try {
        file = args.asStored ? gbx::storedPicture(*picture) : gbx::uprightPicture(*picture);
    } catch (const Error& e) {
        throw Error(args.file + ": " + e.what());
    }
    if (args.size > 0) {
        try {
            const desktop::ScaledPng s = desktop::scaledPng(file.bytes, file.format, args.size);
            file.how += "; " + std::to_string(s.sourceWidth) + "x" +
                        std::to_string(s.sourceHeight) + " fitted to " + std::to_string(s.width) +
                        "x" + std::to_string(s.height);
            file.bytes = s.png;
            file.format = "png";
        } catch (const UsageError&) {
            throw;
        } catch (const Error& e) {
            throw Error(args.file + ": " + e.what());
        }
    }
    if (toStdout) {
        writeAll(STDOUT_FILENO, file.bytes, "standard output");
    } else {
        AtomicOutputFile out(args.out);
        out.write(file.bytes);
        out.commit();
    }
    std::fprintf(stderr, "%s: %s from header chunk %s (%s), %s; wrote %zu bytes of %s to %s\n",
                 args.file.c_str(), picture->icon ? "icon" : "thumbnail",
                 hex32(picture->chunk).c_str(), gbx::describePicture(*picture).c_str(),
                 file.how.c_str(), file.bytes.size(), file.format,
                 toStdout ? "standard output" : args.out.c_str());
    return kExitOk;
}

}  // namespace

void addGbxCommands(CLI::App& app, int& exitCode) {
    CLI::App* gbxCmd = app.add_subcommand("gbx", "Inspect GameBox (.gbx) files");
    gbxCmd->require_subcommand(1);

    auto args = std::make_shared<GbxInfoArgs>();
    CLI::App* info = gbxCmd->add_subcommand(
        "info", "Show a gbx file's header, node count, reference table and body sizes");
    info->footer(
        "With --nodes, also the node tree. A damaged file is shown as far as it goes; where and\n"
        "why reading stopped goes to stderr and the exit code is 1.");
    info->add_option("FILE", args->file,
                     "The .gbx file, or PAK:PATH for a file inside a pak (decoded through the "
                     "game's pipeline; the key options apply to that pak)")
        ->required();
    addKeyOptions(info, args->keys);
    info->add_flag("--nodes", args->nodes, "Read the body and show the node tree");
    info->add_flag("--json", args->json,
                   "Print JSON (keys: version, format, class_id, class_name, user_data_size, "
                   "header_chunks, num_nodes, references, body; with --nodes also nodes)");
    info->callback([args, &exitCode] { exitCode = runGbxInfo(*args); });

    auto thumb = std::make_shared<ThumbnailArgs>();
    CLI::App* thumbnail = gbxCmd->add_subcommand(
        "thumbnail",
        "Write a map's thumbnail, or the icon of an item, block or other collector, upright");
    thumbnail->footer(
        "The games store them upside down: a map's JPEG is flipped without loss (its coded 8x8\n"
        "blocks reordered, no pixel decoded); raw icon pixels and lossless WebP icons are written\n"
        "as PNG. Where the picture came from goes to stderr. A file without one, or one that\n"
        "cannot be turned without loss, is an error (exit code 1): --as-stored writes it as "
        "stored.");
    thumbnail
        ->add_option("FILE", thumb->file,
                     "The .gbx file, or PAK:PATH for a file inside a pak (its header is "
                     "decoded; the key options apply to that pak)")
        ->required();
    thumbnail->add_option("-o,--output", thumb->out,
                          "Write the picture to this file (replaced whole) instead of standard "
                          "output, which must not be a terminal");
    thumbnail
        ->add_option("--size", thumb->size,
                     "Write a PNG whose longer side is at most N pixels (the aspect ratio kept; "
                     "a smaller picture keeps its size), as a file manager's thumbnailer asks "
                     "(desktop/pakfs.thumbnailer)")
        ->check(CLI::Range(1u, 16384u));
    thumbnail->add_flag("--as-stored", thumb->asStored,
                        "Write the picture exactly as the file stores it: upside down (raw "
                        "icon pixels as PNG, rows in stored order)");
    addKeyOptions(thumbnail, thumb->keys);
    thumbnail->callback([thumb, &exitCode] { exitCode = runGbxThumbnail(*thumb); });
}

}  // namespace pakfs::cli
