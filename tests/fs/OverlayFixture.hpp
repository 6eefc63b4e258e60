// SPDX-License-Identifier: GPL-2.0-or-later
// A writable mount (-o overlay=DIR) of the test pack through the kernel, for the overlay and
// stress tests, and what they compare with.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/fs/MountFixture.hpp"

namespace pakfs::test {

// Every file under `root` by relative path, and every folder (content "<dir>").
inline std::map<std::string, std::string> snapshot(const std::filesystem::path& root,
                                                   bool folders = true) {
    std::map<std::string, std::string> out;
    for (auto it = std::filesystem::recursive_directory_iterator(root);
         it != std::filesystem::recursive_directory_iterator(); ++it) {
        const std::string rel = std::filesystem::relative(it->path(), root).string();
        if (it->is_directory()) {
            if (folders) out[rel + "/"] = "<dir>";
        } else {
            Bytes b = readFile(it->path());
            out[rel] = std::string(b.begin(), b.end());
        }
    }
    return out;
}

inline std::string str(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

struct OverlayMount {
    TestPack pack = makeTestPack(true);
    TempDir dir;
    std::filesystem::path overlay = dir / "overlay";
    std::unique_ptr<Mount> mount;

    std::vector<std::string> extraArgs;  // given to every pakfs this fixture starts

    explicit OverlayMount(std::vector<std::string> extra = {}) : extraArgs(std::move(extra)) {
        skipUnlessFuse();
        std::filesystem::create_directories(overlay);
        start();
    }
    void start(const std::string& how = "-o") {
        std::vector<std::string> args{"--key", kTestKeyHex};
        args.insert(args.end(), extraArgs.begin(), extraArgs.end());
        if (how == "-o") {
            args.insert(args.end(), {"-o", "overlay=" + overlay.string()});
        } else {
            args.insert(args.end(), {"--overlay", overlay.string()});
        }
        args.push_back(pack.pak.string());
        mount = std::make_unique<Mount>(args, dir / "mnt", dir);
        INFO(mount->errors());
        REQUIRE(mount->waitMounted());
    }
    void remount(const std::string& how = "-o") {
        mount.reset();
        start(how);
    }
    std::filesystem::path operator/(const std::string& p) const {
        return mount->path() / "Test" / p;
    }
    std::string sh(const std::string& command) const {
        // In a subshell: run() adds its own redirections after the command.
        auto r = run("cd " + quote((mount->path() / "Test").string()) + " && (" + command + ")");
        INFO(command << "\n" << r.out << r.err);
        REQUIRE(r.code == 0);
        return r.out;
    }
};

// One test key for pak commands.
inline std::string keyArg() {
    std::string arg = " --key ";
    arg.append(kTestKeyHex).push_back(' ');
    return arg;
}

}  // namespace pakfs::test
