// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs: mounts TrackMania .pak archives (version 3) and .Pack.Gbx packs (versions 6 to 18), one
// folder per pack: read-only, or writable through an overlay folder (-o overlay).
#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/ops/HashedNames.hpp"
#include "commit/CommitPak.hpp"
#include "commit/OverlayLayout.hpp"
#include "commit/OverlayRecord.hpp"
#include "common/Error.hpp"
#include "common/FileLock.hpp"
#include "common/ShellWord.hpp"
#include "fs/FuseOps.hpp"
#include "fs/overlay/CaseAliases.hpp"
#include "fs/overlay/Overlay.hpp"
#include "fs/view/SeekIndexFile.hpp"
#include "packs/Drives.hpp"
#include "packs/MountPaths.hpp"
#include "packs/Sources.hpp"

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitMountFailed = 1;
// -o commit: the mount ended, and its changes could not all be committed (see the log).
constexpr int kExitCommitFailed = 3;

// --help, then libfuse's options: what pakfs does, its options, and notes; pakfs(1) has the
// details (its sections are named).
const char* const kUsageIntro[] = {
    "Mounts TrackMania .pak archives (version 3) and ManiaPlanet / Trackmania 2020 .Pack.Gbx "
    "packs (versions 6 to 18) read-only, or writable with -o overlay. SOURCE is a pack file or a "
    "game Packs folder (every .pak and .Pack.Gbx in it, keys from its packlist.dat). Each pack "
    "shows as a folder named after its file without the extension.",
    "Unmount with fusermount3 -u MOUNTPOINT (umount as root); SIGINT, SIGTERM and SIGHUP unmount "
    "too. Without -f, pakfs goes to the background once the mount is up, so its exit status says "
    "whether the mount worked (0 yes, 1 no or refused, 2 bad usage). What is refused before "
    "mounting: CHECKS BEFORE MOUNTING in pakfs(1).",
    "As a mount type: mount -t fuse.pakfs SOURCE MOUNTPOINT -o key=HEX32,icase, or a line of "
    "/etc/fstab (MOUNTING FROM FSTAB in pakfs(1)).",
};

// One entry of the option list: its names, and what it does. Names too long for their column
// stand on lines of their own; an entry without names is a note on the one above.
struct UsageOption {
    const char* names;
    const char* help;
};

const UsageOption kUsageOptions[] = {
    {"--key HEX32", "the 16-byte Blowfish key as 32 hex digits (every pack)"},
    {"--key-file FILE", "file holding the key (16 bytes or 32 hex digits)"},
    {"--packlist FILE", "packlist.dat to take keys from (default: the one beside each pak)"},
    {"--base-key HEX32", "version 6+: the pack key is MD5(HEX32 upper-case + \"NadeoPak\")"},
    {"--ms-key HEX32",
     "version 6+: a master server key, combined with the pack's contents checksum"},
    {"--keys FILE",
     "a key for each pack, by name: lines NAME KIND HEX (KIND key, base-key or ms-key; see "
     "pakfs(1)), e.g. \"dedicated base-key 0123...\", for a Packs folder whose packs have keys "
     "of their own; a pack it does not name takes the packlist's key; not with the four above"},
    {"",
     "A version 6+ pack mounts without a key when its header allows; files that need the "
     "missing key give EIO."},
    {"-o key=HEX32, -o key_file=FILE, -o packlist=FILE, -o base_key=HEX32, -o ms_key=HEX32,\n"
     "-o keys=FILE",
     "the same, as mount options (mount -t fuse.pakfs, fstab)"},
    {"",
     "A pak no packlist entry names (Resource.orig.pak) opens with the key of the entry its "
     "header MD5 fits, with a note."},
    {"-o cache_size=SIZE",
     "memory for whole decoded files (small files, gbx files); bytes, or with a K, M or G "
     "suffix (default 64M)"},
    {"-o seek_memory=SIZE",
     "memory for the seek points of large compressed files (two files at a time); K, M or G "
     "suffix (default 32M)"},
    {"-o read_ahead=N",
     "reading a file from its start decodes up to N small files after it in its folder into "
     "the kernel's page cache, on two other threads (default 64; 0 off)"},
    {"-o icase", "case-insensitive lookups, as the game does"},
    {"-o hashed_names",
     "version 6+: files stored under a hashed name show as the hash; without it, under the real "
     "path a gbx file of the mounted packs refers to them by (checked by hashing it), else the "
     "hash (-o resolve_names, which asked for that before, is taken)"},
    {"-o names=FILE",
     "version 6+: also the names of a hash-to-name list as players share them (HASH NAME "
     "lines; see pak(1)), each checked by hashing it; may be repeated"},
    {"-o unverified",
     "serve a stored gbx file that cannot be proven as the node scan's best decode, and a "
     "version 6+ counter-mode file without a checksum as its counter-mode decode, with a log "
     "line, instead of an I/O error"},
    {"-o salvage",
     "mount a pack cut short: the files whose bytes are all there show, each other one is left "
     "out with a warning; not with -o overlay"},
    {"-o drives",
     "the game's view instead of one folder per pack: /Resource (Resource.pak) and /Game "
     "(every other pack merged in packlist.dat order; the pack loaded later wins)"},
    {"-o overlay=DIR, --overlay DIR",
     "writable: every change goes to the folder DIR, never to a pak (DIR/PACK/... mirrors the "
     "mount, deletions are .wh.NAME files); `pak commit PAK DIR OUT` makes a pak of it. Links, "
     "device files and chown are refused; one writable mount per DIR and per pak (WRITABLE "
     "MOUNTS in pakfs(1))"},
    {"-o commit",
     "with -o overlay: when the mount ends, commit each pack's changes into its pak in place (as "
     "pak commit --in-place) and empty its folder in DIR; with -f, exit status 3 when one could "
     "not be committed (the reason: DIR/.pakfs-commit-failed)"},
    {"-o nonempty", "mount over a folder that holds files (hidden while mounted)"},
    {"-o ro, defaults",
     "taken; -o rw is refused without -o overlay (with it, ro mounts the packs and DIR "
     "read-only)"},
    {"-o noauto, auto, user, users, nouser, _netdev, nofail",
     "taken for mount(8) and fstab; no effect on pakfs"},
    {"-o uid=N, gid=N", "owner and group of every file (default: the user mounting)"},
    {"-o umask=M", "mode bits taken off (octal; files are 0444, folders 0555)"},
    {"-o nosuid, nodev, noexec", "passed to the kernel"},
    {"-h, --help", "this help, then libfuse's options"},
    {"-V, --version", "version"},
};

const char* const kUsageNotes[] = {
    "Random reads in a compressed file of 8 MiB or more resume at seek points, built in the "
    "background and kept in $XDG_CACHE_HOME/pakfs/seek (SEEK POINTS in pakfs(1)).",
    "Extended attributes of files: user.pak.class_id, user.pak.flags, user.pak.compressed_size, "
    "user.pak.cipher, user.gbx.class, user.gbx.refs, user.gbx.decode, and for maps "
    "user.gbx.map.title, user.gbx.map.author, user.gbx.map.environment and "
    "user.gbx.map.thumbnail (format, size and bytes): EXTENDED ATTRIBUTES in pakfs(1).",
    "A pack that cannot be opened stops the mount (inside a Packs folder it is left out with a "
    "warning). A file that cannot be decoded gives an I/O error (EIO) and one log line (WHERE "
    "THE LOG GOES in pakfs(1)).",
};

// `text` from column `column` (where the line printed so far ends), its words wrapped at 88
// columns, each further line from column `indent`.
void printWrapped(std::string_view text, std::size_t column, std::size_t indent) {
    constexpr std::size_t kWidth = 88;
    std::string line(column, ' ');
    bool lineStart = true;
    while (!text.empty()) {
        const std::size_t space = text.find(' ');
        const std::string_view word = text.substr(0, space);
        text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
        if (!lineStart && line.size() + 1 + word.size() > kWidth) {
            std::printf("%s\n", line.substr(column).c_str());
            line.assign(indent, ' ');
            column = 0;
            lineStart = true;
        }
        if (!lineStart) line += ' ';
        line += word;
        lineStart = false;
    }
    std::printf("%s\n", line.substr(column).c_str());
}

void printUsage() {
    std::printf("usage: pakfs [options] SOURCE... MOUNTPOINT\n\n");
    for (const char* paragraph : kUsageIntro) {
        printWrapped(paragraph, 0, 0);
        std::printf("\n");
    }
    constexpr std::size_t kHelpColumn = 27;
    std::printf("pakfs options:\n");
    for (const UsageOption& o : kUsageOptions) {
        std::string_view names = o.names;
        std::size_t column = 0;
        while (!names.empty()) {
            const std::size_t end = names.find('\n');
            const std::string line = "    " + std::string(names.substr(0, end));
            names = end == std::string_view::npos ? std::string_view() : names.substr(end + 1);
            std::printf("%s", line.c_str());
            column = line.size();
            if (!names.empty() || column + 1 > kHelpColumn) {
                std::printf("\n");
                column = 0;
            }
        }
        std::printf("%*s", int(kHelpColumn - column), "");
        printWrapped(o.help, kHelpColumn, kHelpColumn);
    }
    std::printf("\n");
    for (const char* paragraph : kUsageNotes) printWrapped(paragraph, 0, 0);
    std::printf("\n");
}

bool parseSize(std::string_view text, std::uint64_t& out) {
    if (text.empty()) return false;
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (value > (~std::uint64_t(0) - 9) / 10) return false;
        value = value * 10 + std::uint64_t(text[i] - '0');
    }
    if (i == 0) return false;
    std::string_view suffix = text.substr(i);
    int shift = 0;
    if (suffix == "" || suffix == "B")
        shift = 0;
    else if (suffix == "K" || suffix == "k" || suffix == "KiB")
        shift = 10;
    else if (suffix == "M" || suffix == "m" || suffix == "MiB")
        shift = 20;
    else if (suffix == "G" || suffix == "g" || suffix == "GiB")
        shift = 30;
    else
        return false;
    if (shift && value > (~std::uint64_t(0) >> shift)) return false;
    out = value << shift;
    return true;
}

// The size of `-o NAME=SIZE` (`opt`), or an Error saying what a size is (`example`: two ways of
// writing one size).
std::uint64_t sizeOption(const std::string& opt, const std::string& name, const char* example) {
    std::uint64_t size = 0;
    if (!parseSize(std::string_view(opt).substr(name.size() + 1), size))
        throw pakfs::Error("-o " + name + "= takes a size such as " + example + " or 1G, got \"" +
                           opt.substr(name.size() + 1) + "\"");
    return size;
}

struct CommandLine {
    std::vector<std::string> positional;
    std::vector<std::string> fuseArgs;
    pakfs::archive::KeyOptions keys;
    pakfs::fs::PackViewOptions fsOptions;
    bool hashedNames = false;            // -o hashed_names (-o resolve_names: the default)
    bool salvage = false;                // -o salvage
    std::vector<std::string> nameLists;  // -o names=FILE
    std::string overlay;                 // -o overlay=DIR, --overlay DIR: writable
    bool rw = false;                     // -o rw
    bool ro = false;                     // -o ro given after any -o rw
    bool nonempty = false;               // -o nonempty: mount over a folder that holds files
    bool commit = false;                 // -o commit: commit the overlay into the paks at unmount
    std::optional<uid_t> uid;            // -o uid= (default: the user mounting)
    std::optional<gid_t> gid;            // -o gid=
    bool foreground = false;
    bool help = false;
    bool version = false;
};

// Takes our own -o options out of a comma-separated list; returns the rest for libfuse.
std::string takeOwnMountOptions(const std::string& list, CommandLine& cl) {
    std::string rest;
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t comma = list.find(',', start);
        std::string opt =
            list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? list.size() + 1 : comma + 1;
        if (opt.empty()) continue;
        if (opt.rfind("key=", 0) == 0) {
            cl.keys.keyHex = opt.substr(4);
        } else if (opt.rfind("key_file=", 0) == 0) {
            cl.keys.keyFile = opt.substr(9);
        } else if (opt.rfind("packlist=", 0) == 0) {
            cl.keys.packList = opt.substr(9);
        } else if (opt.rfind("base_key=", 0) == 0) {
            cl.keys.baseKeyHex = opt.substr(9);
        } else if (opt.rfind("ms_key=", 0) == 0) {
            cl.keys.msKeyHex = opt.substr(7);
        } else if (opt == "rw") {
            cl.rw = true;
            cl.ro = false;
        } else if (opt == "ro") {
            cl.ro = true;  // read-only anyway without an overlay; with one, kept for the kernel
        } else if (opt.rfind("overlay=", 0) == 0) {
            cl.overlay = opt.substr(8);
            if (cl.overlay.empty()) throw pakfs::Error("-o overlay= needs a folder");
        } else if (opt == "defaults" || opt == "auto" || opt == "noauto" || opt == "user" ||
                   opt == "users" || opt == "nouser" || opt == "_netdev" || opt == "nofail") {
            // For mount(8) and fstab: overlay= and ro alone decide whether the mount is
            // writable, and the rest concern when and by whom it is mounted.
        } else if (opt == "nonempty") {
            cl.nonempty = true;
        } else if (opt == "commit") {
            cl.commit = true;
        } else if (opt == "unverified") {
            cl.fsOptions.unverified = true;
        } else if (opt.rfind("names=", 0) == 0) {
            if (opt.size() == 6) throw pakfs::Error("-o names= needs a file");
            cl.nameLists.push_back(opt.substr(6));
        } else if (opt == "salvage") {
            cl.salvage = true;
        } else if (opt == "hashed_names") {
            cl.hashedNames = true;
        } else if (opt == "resolve_names") {
            // What -o hashed_names turns off is the default now; kept for fstab lines using it.
        } else if (opt.rfind("keys=", 0) == 0) {
            if (opt.size() == 5) throw pakfs::Error("-o keys= needs a file");
            cl.keys.keysFile = opt.substr(5);
        } else if (opt == "icase") {
            cl.fsOptions.icase = true;
        } else if (opt == "drives") {
            cl.fsOptions.drives = true;
        } else if (opt.rfind("cache_size=", 0) == 0) {
            cl.fsOptions.cacheBytes = sizeOption(opt, "cache_size", "67108864, 64M");
        } else if (opt.rfind("seek_memory=", 0) == 0) {
            cl.fsOptions.seekMemory = sizeOption(opt, "seek_memory", "33554432, 32M");
        } else if (opt.rfind("read_ahead=", 0) == 0) {
            std::string n = opt.substr(11);
            if (n.empty() || n.size() > 4 || n.find_first_not_of("0123456789") != std::string::npos)
                throw pakfs::Error("-o read_ahead= takes a number of files from 0 to 9999, got \"" +
                                   n + "\"");
            cl.fsOptions.readAheadFiles = std::stoul(n);
        } else if (opt.rfind("uid=", 0) == 0 || opt.rfind("gid=", 0) == 0 ||
                   opt.rfind("umask=", 0) == 0) {
            const std::size_t eq = opt.find('=');
            const std::string name = opt.substr(0, eq), n = opt.substr(eq + 1);
            const bool octal = name == "umask";
            const char* digits = octal ? "01234567" : "0123456789";
            if (n.empty() || n.size() > (octal ? 4 : 10) ||
                n.find_first_not_of(digits) != std::string::npos ||
                std::stoull(n, nullptr, octal ? 8 : 10) > (octal ? 07777ull : 0xfffffffeull))
                throw pakfs::Error("-o " + name + "= takes " +
                                   (octal ? "an octal mode such as 022" : "a number") + ", got \"" +
                                   n + "\"");
            const unsigned long v = std::stoul(n, nullptr, octal ? 8 : 10);
            if (name == "uid")
                cl.uid = uid_t(v);
            else if (name == "gid")
                cl.gid = gid_t(v);
            else
                cl.fsOptions.umask = mode_t(v);
        } else {
            if (opt == "debug") cl.foreground = true;
            rest += (rest.empty() ? "" : ",") + opt;
        }
    }
    return rest;
}

CommandLine parseCommandLine(int argc, char** argv) {
    CommandLine cl;
    auto value = [&](int& i, std::string_view name) -> std::string {
        std::string_view arg = argv[i];
        if (arg.size() > name.size() && arg[name.size()] == '=')
            return std::string(arg.substr(name.size() + 1));
        if (i + 1 >= argc) throw pakfs::Error(std::string(name) + " needs a value");
        return argv[++i];
    };
    bool optionsEnded = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (optionsEnded || arg.empty() || arg[0] != '-' || arg == "-") {
            cl.positional.push_back(arg);
        } else if (arg == "--") {
            optionsEnded = true;
        } else if (arg == "-h" || arg == "--help") {
            cl.help = true;
        } else if (arg == "-V" || arg == "--version") {
            cl.version = true;
        } else if (arg == "--key" || arg.rfind("--key=", 0) == 0) {
            cl.keys.keyHex = value(i, "--key");
        } else if (arg == "--key-file" || arg.rfind("--key-file=", 0) == 0) {
            cl.keys.keyFile = value(i, "--key-file");
        } else if (arg == "--packlist" || arg.rfind("--packlist=", 0) == 0) {
            cl.keys.packList = value(i, "--packlist");
        } else if (arg == "--base-key" || arg.rfind("--base-key=", 0) == 0) {
            cl.keys.baseKeyHex = value(i, "--base-key");
        } else if (arg == "--ms-key" || arg.rfind("--ms-key=", 0) == 0) {
            cl.keys.msKeyHex = value(i, "--ms-key");
        } else if (arg == "--keys" || arg.rfind("--keys=", 0) == 0) {
            cl.keys.keysFile = value(i, "--keys");
            if (cl.keys.keysFile.empty()) throw pakfs::Error("--keys needs a file");
        } else if (arg == "--overlay" || arg.rfind("--overlay=", 0) == 0) {
            cl.overlay = value(i, "--overlay");
            if (cl.overlay.empty()) throw pakfs::Error("--overlay needs a folder");
        } else if (arg == "-o" || arg.rfind("-o", 0) == 0) {
            std::string list =
                arg == "-o" ? (i + 1 < argc ? argv[++i] : throw pakfs::Error("-o needs a value"))
                            : arg.substr(2);
            std::string rest = takeOwnMountOptions(list, cl);
            if (!rest.empty()) {
                cl.fuseArgs.push_back("-o");
                cl.fuseArgs.push_back(rest);
            }
        } else {
            // -f, -d, -s and the rest of libfuse's options.
            if (arg == "-f" || arg == "-d") cl.foreground = true;
            cl.fuseArgs.push_back(arg);
        }
    }
    return cl;
}

// Options that do not go together, as the one line that says so; none when they do.
std::optional<std::string> optionClash(const CommandLine& cl) {
    if (cl.rw && cl.overlay.empty())
        return "-o rw: a pak is never changed; give -o overlay=DIR to keep changes there, or -o "
               "ro (mount(8) passes rw unless ro is given)";
    if (cl.salvage && !cl.overlay.empty())
        return "-o salvage mounts read-only: a pack cut short cannot take an overlay's changes";
    if (cl.commit && cl.overlay.empty())
        return "-o commit commits an overlay's changes at unmount: give -o overlay=DIR with it";
    if (cl.hashedNames && !cl.nameLists.empty())
        return "-o hashed_names shows the stored hashes: it does not go with -o names=";
    if (cl.commit && cl.fsOptions.drives)
        return "-o commit does not go with -o drives (the Game drive's changes go into a pack of "
               "their own: pak commit --patch)";
    return std::nullopt;
}

// Before anything is opened or mounted: a path pakfs uses inside its own mount hangs it.
void checkPaths(const CommandLine& cl, const std::string& mountpoint) {
    pakfs::packs::checkMountPoint(mountpoint, true);
    std::vector<pakfs::packs::UsedPath> used;
    for (std::size_t i = 0; i + 1 < cl.positional.size(); ++i)
        used.push_back({"the source", cl.positional[i]});
    if (!cl.keys.packList.empty()) used.push_back({"the packlist", cl.keys.packList});
    if (!cl.keys.keyFile.empty()) used.push_back({"the key file", cl.keys.keyFile});
    if (!cl.keys.keysFile.empty()) used.push_back({"the keys file", cl.keys.keysFile});
    for (const auto& file : cl.nameLists) used.push_back({"the name list", file});
    if (!cl.overlay.empty()) used.push_back({"the overlay folder", cl.overlay});
    if (auto seek = pakfs::fs::seekIndexFolder())
        used.push_back({"the seek point folder ($XDG_CACHE_HOME/pakfs/seek)", *seek});
    pakfs::packs::refuseSelfMount(mountpoint, used, cl.overlay);
    if (!cl.overlay.empty()) {
        std::error_code ec;
        if (!std::filesystem::exists(cl.overlay, ec))
            throw pakfs::Error(cl.overlay +
                               ": no such folder (the overlay folder must exist: mkdir " +
                               pakfs::shellWord(cl.overlay) + " first)");
        if (!std::filesystem::is_directory(cl.overlay, ec))
            throw pakfs::Error(cl.overlay + ": not a folder (-o overlay= takes a folder)");
    }
    pakfs::packs::checkMountPoint(mountpoint, cl.nonempty);
}

void warnLine(const std::string& line) {
    std::fprintf(stderr, "pakfs: warning: %s\n", line.c_str());
}

// The packs of every SOURCE, with the name lists' names, in the game's load order (so the
// merged view and references follow it); their warnings on stderr.
pakfs::packs::LoadedSources loadPacks(const CommandLine& cl,
                                      const std::vector<std::filesystem::path>& sources) {
    std::vector<std::string> listWarnings;
    std::vector<pakfs::archive::HashList> lists =
        pakfs::archive::readHashListFiles(cl.nameLists, listWarnings);
    for (const auto& w : listWarnings) warnLine(w);
    // A writable mount's names are those pak commit finds, which opens one pak: each pack's own
    // references then; the Game drive's changes go into a pack of their own (--patch), which
    // reads the folder's packs together, as a read-only mount does.
    const bool acrossPacks = cl.overlay.empty() || cl.fsOptions.drives;
    pakfs::packs::LoadedSources loaded = pakfs::packs::loadSources(
        sources, cl.keys, !cl.hashedNames, lists, cl.salvage, acrossPacks);
    for (const auto& w : loaded.warnings) warnLine(w);
    std::vector<std::string> orderWarnings;
    loaded.packs = pakfs::packs::orderPacks(std::move(loaded.packs),
                                            pakfs::packs::packListOrder(sources, &orderWarnings));
    for (const auto& w : orderWarnings) warnLine(w);
    return loaded;
}

// Whether syslog(3) has a daemon to talk to (containers and WSL often have none).
bool haveSyslog() {
    struct stat st {};
    return ::stat("/dev/log", &st) == 0 && S_ISSOCK(st.st_mode);
}

// Appends one line, stamped, to the overlay folder's log file (no symbolic link followed).
void appendLogFile(const std::filesystem::path& file, const std::string& line) {
    const int fd =
        ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return;
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    char when[32] = "?";
    if (::gmtime_r(&now, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    const std::string text =
        std::string(when) + " pakfs[" + std::to_string(::getpid()) + "]: " + line + "\n";
    [[maybe_unused]] const ssize_t n = ::write(fd, text.data(), text.size());
    ::close(fd);
}

// Log lines of the mount: on stderr in the foreground, else to syslog. Without syslog: on
// stderr until the mount goes to the background (libfuse then points stderr at /dev/null), then
// into the overlay folder's log file (a read-only mount has none: its lines are lost then).
void setLog(CommandLine& cl) {
    if (cl.foreground) {
        cl.fsOptions.log = [](const std::string& line) {
            std::fprintf(stderr, "pakfs: %s\n", line.c_str());
        };
    } else if (haveSyslog()) {
        openlog("pakfs", LOG_PID, LOG_USER);
        cl.fsOptions.log = [](const std::string& line) { syslog(LOG_ERR, "%s", line.c_str()); };
    } else {
        // A stderr that is /dev/null already (a mount from fstab) is no place for them.
        struct stat before {
        }, null{};
        const bool haveStderr = ::fstat(2, &before) == 0 &&
                                !(S_ISCHR(before.st_mode) && ::stat("/dev/null", &null) == 0 &&
                                  before.st_rdev == null.st_rdev);
        const std::filesystem::path file =
            cl.overlay.empty()
                ? std::filesystem::path()
                : std::filesystem::absolute(cl.overlay) / pakfs::commit::kOverlayLogFile;
        cl.fsOptions.log = [=](const std::string& line) {
            struct stat now {};
            if (haveStderr && ::fstat(2, &now) == 0 && now.st_dev == before.st_dev &&
                now.st_ino == before.st_ino)
                std::fprintf(stderr, "pakfs: %s\n", line.c_str());
            else if (!file.empty())
                appendLogFile(file, line);
        };
    }
}

// What a writable mount holds while it serves: the overlay, its folder's lock, and the marks
// that tell writers of its paks that it serves them.
struct WritableMount {
    std::unique_ptr<pakfs::fs::Overlay> overlay;
    // With icase: other spellings as inodes of their own, so that mv can change a name's case.
    std::unique_ptr<pakfs::fs::CaseAliases> aliases;
    pakfs::FolderLock lock;
    std::vector<pakfs::ServedMark> marks;
};

WritableMount prepareOverlay(const CommandLine& cl, pakfs::fs::PackView& filesystem,
                             const std::vector<pakfs::packs::Pack>& servedPacks,
                             const std::filesystem::path& overlayRoot,
                             const std::string& mountedAt) {
    WritableMount m;
    if (!cl.fsOptions.drives) pakfs::commit::refuseSameNamePacks(servedPacks);
    // One mount at a time on an overlay folder, and no commit of it meanwhile; taken
    // before the work folder is emptied (another mount's kept files are in it).
    m.lock = pakfs::commit::lockOverlay(overlayRoot, "mount " + mountedAt);
    // One writable mount per pak: another's changes are made over the pak this one's commit
    // would replace (read-only mounts beside it mark nothing). A writer replacing one of these
    // paks is refused, naming this mount.
    for (const auto& p : servedPacks) {
        std::string servedBy;
        m.marks.push_back(pakfs::ServedMark::markAlone(p.pak->name(), mountedAt, servedBy));
        if (!servedBy.empty())
            throw pakfs::Error(p.pak->name() + ": the writable mount at " + servedBy +
                               " serves it already (one writable mount per pak): unmount " +
                               servedBy + " first (fusermount3 -u " + pakfs::shellWord(servedBy) +
                               "), or mount it read-only (without -o overlay)");
    }
    // A commit at the last unmount that failed: said again until a commit succeeds.
    for (const auto& line : pakfs::commit::unmountCommitFailures(overlayRoot)) warnLine(line);
    // Absolute: the mount's daemon runs from /.
    m.overlay = std::make_unique<pakfs::fs::Overlay>(
        filesystem,
        pakfs::fs::OverlayOptions{overlayRoot, cl.fsOptions.uid, cl.fsOptions.gid,
                                  cl.fsOptions.umask, cl.fsOptions.log, cl.fsOptions.icase});
    if (cl.fsOptions.icase) m.aliases = std::make_unique<pakfs::fs::CaseAliases>(*m.overlay);
    // Which pak each pack's changes are made over, for pak commit to check.
    for (const auto& w : pakfs::commit::recordMountedPacks(overlayRoot, servedPacks)) warnLine(w);
    if (!cl.fsOptions.drives) {
        std::vector<std::string> names;
        for (const auto& p : servedPacks) names.push_back(p.name);
        for (const auto& name : pakfs::commit::strayOverlayNames(overlayRoot, names))
            warnLine((overlayRoot / name).string() +
                     ": no pack of this mount is named so (an overlay folder keeps each pack's "
                     "changes in a folder named like the pack); shown as a folder of its own, "
                     "and pak commit refuses it");
    }
    return m;
}

// Serves the packs through an overlay folder; with -o commit, commits it when the mount ends.
int serveWritable(const CommandLine& cl, pakfs::fs::PackView& filesystem,
                  const std::vector<pakfs::packs::Pack>& servedPacks,
                  const std::string& mountpoint) {
    const std::filesystem::path overlayRoot = std::filesystem::absolute(cl.overlay);
    const std::string mountedAt = std::filesystem::absolute(mountpoint).lexically_normal().string();
    WritableMount m;
    try {
        m = prepareOverlay(cl, filesystem, servedPacks, overlayRoot, mountedAt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pakfs: %s\n", e.what());
        return kExitMountFailed;
    }
    pakfs::fs::View& top = m.aliases ? static_cast<pakfs::fs::View&>(*m.aliases) : *m.overlay;
    int rc = pakfs::fs::serve(top, filesystem, "pakfs", cl.fuseArgs, mountpoint, cl.fsOptions.log);
    if (cl.commit && rc == 0) {
        // Those refused the overlay meanwhile learn that the mount is gone, its commit not.
        try {
            m.lock.describe("commit at the unmount of " + mountedAt);
        } catch (const std::exception&) {
        }
        if (!pakfs::commit::commitAtUnmount(servedPacks, overlayRoot, cl.keys, mountedAt,
                                            cl.fsOptions.log))
            rc = kExitCommitFailed;
    }
    return rc;
}

}  // namespace

int main(int argc, char** argv) {
    // Decoded files come and go by the thousand: memory glibc hands back to the kernel after
    // each is freed must be faulted in again for the next (perf: more time than the Blowfish
    // decryption when copying a folder). Keep it; the peak stays bounded by -o cache_size.
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    CommandLine cl;
    try {
        cl = parseCommandLine(argc, argv);
    } catch (const pakfs::Error& e) {
        std::fprintf(stderr, "pakfs: %s\n", e.what());
        return kExitUsage;
    }
    if (auto clash = optionClash(cl)) {
        std::fprintf(stderr, "pakfs: %s\n", clash->c_str());
        return kExitUsage;
    }
    // With an overlay, -o ro mounts read-only what the packs and the overlay show.
    if (cl.ro && !cl.overlay.empty()) cl.fuseArgs.insert(cl.fuseArgs.end(), {"-o", "ro"});
    if (cl.help) {
        printUsage();
        pakfs::fs::printFuseHelp("pakfs");
        return 0;
    }
    if (cl.version) {
        std::printf("%s\n", pakfs::fs::versionLine().c_str());
        return 0;
    }
    // Usage errors in one line, before anything is opened: libfuse's options too, tried with
    // its own parsers (one it does not know would otherwise stop the mount after the packs
    // were loaded, with libfuse's message).
    if (std::string problem = pakfs::fs::checkFuseArgs(cl.fuseArgs); !problem.empty()) {
        std::fprintf(stderr, "pakfs: %s (pakfs --help lists the options)\n", problem.c_str());
        return kExitUsage;
    }
    if (cl.positional.size() < 2) {
        std::fprintf(stderr,
                     "pakfs: give at least one SOURCE and the MOUNTPOINT (pakfs --help lists the "
                     "options)\n");
        return kExitUsage;
    }
    std::string mountpoint = cl.positional.back();
    std::vector<std::filesystem::path> sources;
    for (std::size_t i = 0; i + 1 < cl.positional.size(); ++i)
        sources.push_back(std::filesystem::absolute(cl.positional[i]));
    try {
        checkPaths(cl, mountpoint);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pakfs: %s\n", e.what());
        return kExitMountFailed;
    }
    pakfs::packs::LoadedSources loaded;
    try {
        loaded = loadPacks(cl, sources);
    } catch (const pakfs::UsageError& e) {
        // A malformed -o key= and the like: the usage, not the pack.
        std::fprintf(stderr, "pakfs: %s (pakfs --help lists the options)\n", e.what());
        return kExitUsage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pakfs: %s\n", e.what());
        return kExitMountFailed;
    }
    cl.fsOptions.uid = cl.uid.value_or(getuid());
    cl.fsOptions.gid = cl.gid.value_or(getgid());
    setLog(cl);
    const std::vector<pakfs::packs::Pack> servedPacks = loaded.packs;  // for the overlay's record
    pakfs::fs::PackView filesystem(std::move(loaded.packs), cl.fsOptions, warnLine);
    if (cl.overlay.empty())
        return pakfs::fs::serve(filesystem, filesystem, "pakfs", cl.fuseArgs, mountpoint,
                                cl.fsOptions.log);
    return serveWritable(cl, filesystem, servedPacks, mountpoint);
}
