// SPDX-License-Identifier: GPL-2.0-or-later
// An overlay folder built from the fuzz bytes, planned as `pak commit` plans it. Each run makes
// a fresh folder (removed after) holding what the bytes say: folders, small files, whiteouts,
// opaque markers, symbolic links, named pipes, odd and very long names, things at the overlay's
// top beside the pack's folder, and a .pakfs-packs record of fuzzed text. commit::planCommit over a
// small pak (written once; the first byte picks version 3 or 18), commit::readOverlayRecords and
// commit::checkOverlayRecord must give a plan or throw Error.
//
// Input: a flags byte (bit 0: the version 18 pack), then up to kMaxOps operations, each an
// operation byte (low 3 bits: what; high 3 bits: 7 puts it at the overlay's top instead of in
// the pack's folder) followed by a path (a length byte, then the bytes; "/" separates folders)
// and what the operation reads after it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "archive/pak/PackList.hpp"
#include "archive/write/PakWriter.hpp"
#include "commit/OverlayLayout.hpp"
#include "commit/OverlayPlan.hpp"
#include "commit/OverlayRecord.hpp"
#include "fuzz/FuzzUtil.hpp"
#include "fuzz/OverlayOps.hpp"

using namespace pakfs;
using fuzz::Input;
namespace stdfs = std::filesystem;

namespace {

constexpr std::size_t kMaxOps = 48;
constexpr std::size_t kMaxContent = 96;
constexpr std::size_t kMaxRecord = 1024;

// A folder in /dev/shm (or /tmp) of this process: the paks, and each run's overlay below it.
const stdfs::path& workDir() {
    static const stdfs::path* dir = [] {
        const std::string& scratch = fuzz::scratchPath();
        auto* p = new stdfs::path(scratch + ".overlay-fuzz");
        stdfs::remove_all(*p);
        stdfs::create_directories(*p);
        std::atexit([] {
            std::error_code ec;
            stdfs::remove_all(workDir(), ec);
        });
        return p;
    }();
    return *dir;
}

void writeFile(const stdfs::path& p, const std::string& content) {
    // O_NONBLOCK: an earlier operation may have made a named pipe of this name, whose open for
    // writing would wait for a reader forever; with it the open fails and the file is left out.
    int fd =
        ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) return;  // a name the file system refuses: left out
    if (::write(fd, content.data(), content.size()) != ssize_t(content.size())) std::abort();
    ::close(fd);
}

// The base tree: folders, files of the same size (renames), a gbx-looking name.
const std::vector<std::pair<std::string, std::string>>& baseFiles() {
    static const std::vector<std::pair<std::string, std::string>> files = {
        {"root.txt", "root\n"},
        {"Config/default.xml", std::string(300, 'x')},
        {"Media/Texture/a.dds", std::string(2000, 'a')},
        {"Media/Texture/b.dds", std::string(2000, 'b')},
        {"Media/Solid/Road.Solid.Gbx", "not a gbx file at all"},
        {"Text/a.txt", "a text\n"},
    };
    return files;
}

struct Base {
    std::shared_ptr<const archive::PakIndex> pak;
    std::string path;
};

const Base& base(bool v18) {
    static const Base* bases = [] {
        auto* b = new Base[2];
        const stdfs::path tree = workDir() / "tree";
        for (const auto& [path, content] : baseFiles()) {
            stdfs::create_directories((tree / path).parent_path());
            writeFile(tree / path, content);
        }
        stdfs::create_directories(tree / "Empty");
        for (int i = 0; i < 2; ++i) {
            archive::PackOptions options;
            options.version = i ? 18 : 3;
            options.jobs = 1;
            const stdfs::path out = workDir() / (i ? "Base.Pack.Gbx" : "Base.pak");
            archive::writePak(tree, out, fuzz::fuzzKey(), options);
            b[i].pak = archive::PakIndex::open(out, fuzz::fuzzKey());
            b[i].path = out.string();
        }
        stdfs::remove_all(tree);
        return b;
    }();
    return bases[v18 ? 1 : 0];
}

// A path of the fuzz bytes made safe to create under the run's folder: no empty, "." or ".."
// part (nothing may land outside it), no NUL. Any other byte stays, '\\' and 0xFF included.
std::vector<std::string> components(const std::string& raw) {
    std::vector<std::string> parts;
    std::string part;
    auto flush = [&] {
        if (part == "." || part == "..") part = "_" + part;
        if (!part.empty()) parts.push_back(part);
        part.clear();
    };
    for (char c : raw) {
        if (c == '/')
            flush();
        else
            part += c == '\0' ? '\x01' : c;
    }
    flush();
    return parts;
}

stdfs::path under(const stdfs::path& dir, const std::vector<std::string>& parts) {
    stdfs::path p = dir;
    for (const auto& part : parts) p /= part;
    return p;
}

// Creates the folders above `p` (below `top`), as far as the file system lets it.
void makeParents(const stdfs::path& top, const std::vector<std::string>& parts) {
    stdfs::path p = top;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        p /= parts[i];
        ::mkdir(p.c_str(), 0755);
    }
}

// Names the layout gives a meaning to, and names near them.
const char* const kSpecialNames[] = {
    ".wh..wh..opq", ".wh.", ".wh.root.txt", ".wh.Media", ".wh.Config", ".pakfs-packs",
    ".pakfs-work",  "Base", "base",         "BASE",      "Media",      "media",
    "Text",         "TEXT", "a.txt",        "A.TXT",     "x\\y",       ".wh..wh..opq.x"};

// Builds the overlay under `root` from the input. The pack's folder is made by the first
// operation in it, so one at the top can put something else of its name there first.
void build(Input& in, const stdfs::path& root, const stdfs::path& packDir) {
    for (std::size_t n = 0; n < kMaxOps && !in.done(); ++n) {
        const std::uint8_t op = in.byte();
        const stdfs::path top = (op & fuzz::kAtTop) == fuzz::kAtTop ? root : packDir;
        if (top == packDir) ::mkdir(packDir.c_str(), 0755);
        std::vector<std::string> parts = components(in.bytes(in.byte() % 64));
        const auto what = fuzz::OverlayOp(op & fuzz::kOpMask);
        if (what == fuzz::kSpecialName) {  // a name of the layout's own, last in the path
            parts.push_back(kSpecialNames[in.byte() % std::size(kSpecialNames)]);
        } else if (what == fuzz::kLongName) {  // a long name: 200 to 300 bytes
            parts.push_back(std::string(200 + in.byte() % 101, char('A' + in.byte() % 26)));
        }
        if (parts.empty()) parts.push_back("f");
        makeParents(top, parts);
        const stdfs::path p = under(top, parts);
        switch (what) {
            case fuzz::kMkdir:
                ::mkdir(p.c_str(), 0755);
                break;
            case fuzz::kFile: {
                // Small contents, or a base file's (no change, or a rename of it).
                const std::uint8_t len = in.byte();
                if (len & 0x80)
                    writeFile(p, baseFiles()[(len & 0x7F) % baseFiles().size()].second);
                else
                    writeFile(p, in.bytes(len % kMaxContent));
                break;
            }
            case fuzz::kWhiteout: {  // a whiteout of the last name
                const stdfs::path w = p.parent_path() / commit::whiteoutName(parts.back());
                writeFile(w, "");
                break;
            }
            case fuzz::kOpaque:  // an opaque marker in the folder
                ::mkdir(p.c_str(), 0755);
                writeFile(p / std::string(commit::kOpaqueMarker), "");
                break;
            case fuzz::kLink: {  // a symbolic link: dangling, to a sibling, up, or to the run's top
                const std::uint8_t kind = in.byte();
                const std::string target = kind % 4 == 0   ? std::string("..")
                                           : kind % 4 == 1 ? root.string()
                                           : kind % 4 == 2 ? packDir.string()
                                                           : "n" + std::to_string(kind);
                ::symlink(target.c_str(), p.c_str());
                break;
            }
            case fuzz::kRecord: {  // the record file at the top, fuzzed text
                const std::size_t len = std::size_t(in.byte()) * 4 % kMaxRecord;
                writeFile(root / commit::kOverlayRecordFile, in.bytes(len));
                break;
            }
            case fuzz::kLongName:
            case fuzz::kSpecialName: {
                // A file, a folder or a named pipe of that name (never the record file: a
                // pipe there is what another check refuses before opening it).
                const std::uint8_t kind = in.byte() % 3;
                if (kind == 0)
                    ::mkdir(p.c_str(), 0755);
                else if (kind == 1 || parts.back() == commit::kOverlayRecordFile)
                    writeFile(p, in.bytes(in.byte() % kMaxContent));
                else
                    ::mkfifo(p.c_str(), 0644);
                break;
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 16384) return 0;
    Input in(data, size);
    const Base& b = base(in.byte() & 1);
    const stdfs::path root = workDir() / "overlay";
    std::error_code ec;
    stdfs::remove_all(root, ec);
    if (ec || !stdfs::create_directory(root, ec)) std::abort();
    const std::string packName = archive::packNameOf(b.path);
    const stdfs::path packDir = commit::overlayFolderOf(root, *b.pak);
    build(in, root, packDir);
    try {
        archive::ChangePlan plan = commit::planCommit(b.pak, packDir);
        (void)plan;
    } catch (const Error&) {
    }
    try {
        (void)commit::readOverlayRecords(root);
    } catch (const Error&) {
    }
    try {
        commit::checkOverlayRecord(root, packName, *b.pak, b.path);
    } catch (const Error&) {
    }
    stdfs::remove_all(root, ec);
    if (ec) std::abort();  // the next run needs a fresh folder
    return 0;
}
