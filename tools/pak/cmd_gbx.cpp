// SPDX-License-Identifier: GPL-2.0-or-later
// pak gbx info
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"
#include "gbx/Describe.hpp"
#include "gbx/GbxFile.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"

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

// FILE on disk, or PAK:PATH: the entry decoded from the pak (only when its bytes are proven).
Bytes readTarget(const GbxInfoArgs& args) {
    auto colon = args.file.find(':');
    std::error_code ec;
    const auto onDisk = std::filesystem::status(args.file, ec);
    // A FIFO or device is read as a file, which refuses it ("not a regular file").
    if ((std::filesystem::exists(onDisk) && !std::filesystem::is_directory(onDisk)) ||
        colon == std::string::npos || !std::filesystem::is_regular_file(args.file.substr(0, colon)))
        return readGbxFileOnDisk(args.file);
    std::string inner = args.file.substr(colon + 1);
    auto pak = openAndWarn(args.file.substr(0, colon), args.keys);
    const archive::PakEntry* e = findEntry(*pak, inner);
    if (!e) throw Error(pak->name() + ": no file \"" + inner + "\" in the pak");
    return archive::readEntry(pak, *e);
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

}  // namespace

void addGbxCommands(CLI::App& app, int& exitCode) {
    CLI::App* gbxCmd = app.add_subcommand("gbx", "Inspect GameBox (.gbx) files");
    gbxCmd->require_subcommand(1);

    auto args = std::make_shared<GbxInfoArgs>();
    CLI::App* info = gbxCmd->add_subcommand(
        "info",
        "Show a gbx file's header (version, format, class, header chunks), node count, "
        "reference table and body sizes. With --nodes, also read the body and show the node "
        "tree with each node's class and chunks. A damaged file is shown as far as it goes; "
        "where and why reading stopped goes to stderr and the exit code is 1.");
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
}

}  // namespace pakfs::cli
