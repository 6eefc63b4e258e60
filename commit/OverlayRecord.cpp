// SPDX-License-Identifier: GPL-2.0-or-later
// The overlay record read (each line's fields checked) and written atomically; the mount's
// record of its paks, warning of changes made over another; commit's check and mark.
#include "commit/OverlayRecord.hpp"

#include <sstream>

#include "commit/OverlayLayout.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::commit {

namespace {

constexpr const char* kMounted = "mounted";
constexpr const char* kCommitted = "committed";
// A line per pack: far more than any Packs folder needs.
constexpr std::uint64_t kMaxRecordFileSize = 16 << 20;

bool emptyOrAbsent(const stdfs::path& dir) {
    std::error_code ec;
    if (!stdfs::exists(stdfs::symlink_status(dir, ec))) return true;
    return stdfs::is_directory(stdfs::symlink_status(dir, ec)) && stdfs::is_empty(dir, ec) && !ec;
}

OverlayRecord* findRecord(std::vector<OverlayRecord>& records, const std::string& pack) {
    for (auto& r : records)
        if (foldCase(r.pack) == foldCase(pack)) return &r;
    return nullptr;
}

OverlayRecord recordOf(const std::string& pack, const char* state, const archive::PakIndex& pak,
                       const std::string& pakPath) {
    std::error_code ec;
    stdfs::path abs = stdfs::absolute(pakPath, ec);
    return {pack, state, pakStamp(pak), ec ? pakPath : abs.lexically_normal().string()};
}

}  // namespace

std::string pakStamp(const archive::PakIndex& pak) {
    if (const auto& h = pak.packHeader())
        return "v" + std::to_string(pak.version()) + ":sha256:" + hexString(h->contentsChecksum);
    return "v" + std::to_string(pak.version()) + ":md5:" + hexString(pak.headerMd5());
}

std::vector<OverlayRecord> readOverlayRecords(const stdfs::path& overlayRoot) {
    const stdfs::path file = overlayRoot / kOverlayRecordFile;
    std::vector<OverlayRecord> records;
    auto opened = openOverlayOwnFile(file);
    if (!opened) return records;
    if (opened->size() > kMaxRecordFileSize)
        throw Error(file.string() + ": " + std::to_string(opened->size()) +
                    " bytes, more than a record of packs holds (" +
                    std::to_string(kMaxRecordFileSize) + ")");
    const Bytes bytes = opened->readAt(0, std::size_t(opened->size()));
    std::istringstream in(std::string(bytes.begin(), bytes.end()));
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        OverlayRecord r;
        std::istringstream fields(line);
        std::getline(fields, r.pack, '\t');
        std::getline(fields, r.state, '\t');
        std::getline(fields, r.stamp, '\t');
        std::getline(fields, r.pakPath);
        if (r.pack.empty() || r.stamp.empty() || (r.state != kMounted && r.state != kCommitted))
            throw Error(file.string() + ": line " + std::to_string(n) +
                        ": not PACK, mounted|committed, STAMP and PAK separated by tabs");
        records.push_back(std::move(r));
    }
    return records;
}

void writeOverlayRecords(const stdfs::path& overlayRoot,
                         const std::vector<OverlayRecord>& records) {
    std::string text =
        "# The paks this overlay folder's changes were made over: pack, state, stamp, path.\n"
        "# pak commit refuses a pak whose stamp differs (see pak(1), commit).\n";
    for (const auto& r : records)
        text += r.pack + "\t" + r.state + "\t" + r.stamp + "\t" + r.pakPath + "\n";
    AtomicOutputFile out(overlayRoot / kOverlayRecordFile);
    out.write({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    out.commit();
}

std::vector<std::string> recordMountedPacks(const stdfs::path& overlayRoot,
                                            const std::vector<packs::Pack>& packs) {
    std::vector<OverlayRecord> records = readOverlayRecords(overlayRoot);
    std::vector<std::string> warnings;
    bool changed = false;
    for (const auto& p : packs) {
        const std::string pakPath = p.pak->name();
        OverlayRecord now = recordOf(p.name, kMounted, *p.pak, pakPath);
        OverlayRecord* r = findRecord(records, p.name);
        if (!r) {
            records.push_back(now);
            changed = true;
        } else if (emptyOrAbsent(overlayRoot / p.name)) {
            // Nothing made over the old pak is left: start afresh over this one.
            if (r->stamp != now.stamp || r->state != now.state || r->pakPath != now.pakPath) {
                *r = now;
                changed = true;
            }
        } else if (r->stamp != now.stamp) {
            warnings.push_back(
                (overlayRoot / p.name).string() + ": " +
                (r->state == kCommitted
                     ? "these changes were committed into " + r->pakPath +
                           " already; shown again over " + pakPath +
                           ", and pak commit will refuse them (empty the folder to start afresh)"
                     : "these changes were made over another pak (" + r->pakPath + ", stamp " +
                           r->stamp + "); shown over " + pakPath +
                           ", and pak commit will refuse them without --force"));
        } else if (r->state == kCommitted) {
            warnings.push_back((overlayRoot / p.name).string() +
                               ": these changes are committed into " + pakPath +
                               " already; pak commit will refuse them (empty the folder to make "
                               "new changes over the pack)");
        }
    }
    if (changed) writeOverlayRecords(overlayRoot, records);
    return warnings;
}

void checkOverlayRecord(const stdfs::path& overlayRoot, const std::string& packName,
                        const archive::PakIndex& pak, const std::string& pakPath) {
    std::vector<OverlayRecord> records = readOverlayRecords(overlayRoot);
    const OverlayRecord* r = findRecord(records, packName);
    if (!r) return;
    const std::string folder = (overlayRoot / r->pack).string();
    const std::string stamp = pakStamp(pak);
    if (r->state == kCommitted)
        throw Error(folder + ": these changes were committed into " + r->pakPath +
                    " already (pak commit --in-place)" +
                    (r->stamp == stamp ? ", which " + pakPath + " is"
                                       : "; " + pakPath + " is another pak (stamp " + stamp +
                                             ", recorded " + r->stamp + ")") +
                    ". Empty or remove the folder to make new changes, or pass --force to apply "
                    "them again");
    if (r->stamp != stamp)
        throw Error(folder + ": these changes were made over " + r->pakPath + " (stamp " +
                    r->stamp + "), and " + pakPath + " is another pak (stamp " + stamp +
                    "): pass --force to apply them to it anyway");
}

void markCommitted(const stdfs::path& overlayRoot, const std::string& packName,
                   const archive::PakIndex& pak, const std::string& pakPath) {
    std::vector<OverlayRecord> records = readOverlayRecords(overlayRoot);
    OverlayRecord now = recordOf(packName, kCommitted, pak, pakPath);
    if (OverlayRecord* r = findRecord(records, packName))
        *r = now;
    else
        records.push_back(now);
    writeOverlayRecords(overlayRoot, records);
}

}  // namespace pakfs::commit
