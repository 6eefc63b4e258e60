// SPDX-License-Identifier: GPL-2.0-or-later
// Seek index files: the cache folder, a file named by the MD5 of pak path and entry, loaded only
// when identity, table MD5 and every point's fields check out; written atomically.
#include "fs/view/SeekIndexFile.hpp"

#include <cstdlib>
#include <cstring>

#include "common/File.hpp"

namespace pakfs::fs {

namespace {

// Version 2 keeps the windows deflated; a version 1 file fails the identity check and is
// built again.
constexpr char kMagic[8] = {'P', 'A', 'K', 'F', 'S', 'S', 'K', '2'};
constexpr std::size_t kPointHeader = 8 + 8 + 1 + 1 + 4 + 4 + 4;

// What the points depend on: the pak file as it is now and the entry's place in it.
Bytes identity(const archive::PakIndex& pak, const archive::PakEntry& e, std::uint64_t span) {
    Bytes out(kMagic, kMagic + 8);
    ByteWriter w(out);
    w.u64(pak.file()->size());
    w.u64(std::uint64_t(pak.file()->mtime()));
    w.bytes(pak.headerMd5());
    w.u32(e.index);
    w.u64(pak.entryOffset(e));
    w.u32(e.compressedSize);
    w.u32(e.uncompressedSize);
    w.u64(span);
    return out;
}

}  // namespace

std::optional<std::filesystem::path> seekIndexFolder() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return std::filesystem::path(xdg) / "pakfs" / "seek";
    if (const char* home = std::getenv("HOME"); home && *home == '/')
        return std::filesystem::path(home) / ".cache" / "pakfs" / "seek";
    return std::nullopt;
}

std::optional<std::filesystem::path> seekIndexFile(const archive::PakIndex& pak,
                                                   const archive::PakEntry& entry) {
    const auto folder = seekIndexFolder();
    if (!folder) return std::nullopt;
    std::error_code ec;
    std::string where = std::filesystem::weakly_canonical(pak.name(), ec).string();
    if (ec) where = pak.name();
    archive::Md5Digest h = archive::md5(where + "\n" + std::to_string(entry.index));
    return *folder / (hexString(h) + ".idx");
}

bool loadSeekIndex(const std::filesystem::path& file, const archive::PakIndex& pak,
                   const archive::PakEntry& entry, archive::SeekIndex& into) {
    try {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) return false;
        std::shared_ptr<const InputFile> in = InputFile::open(file);
        // The identity, the point table and its MD5 are read now; each window is read (and
        // its CRC-32 checked) when a read resumes at its point.
        const Bytes id = identity(pak, entry, into.span());
        if (in->size() < id.size() + 4 + 16) return false;
        Bytes head = in->readAt(0, id.size() + 4);
        if (!std::equal(id.begin(), id.end(), head.begin())) return false;
        const std::uint32_t count = loadLE32(head.data() + id.size());
        if (count > into.maxPoints()) return false;
        const std::uint64_t tableEnd = id.size() + 4 + std::uint64_t(count) * kPointHeader;
        if (in->size() < tableEnd + 16) return false;
        Bytes data = in->readAt(0, std::size_t(tableEnd + 16));
        archive::Md5Digest sum = archive::md5(ByteSpan(data).first(std::size_t(tableEnd)));
        if (!std::equal(sum.begin(), sum.end(), data.begin() + std::ptrdiff_t(tableEnd)))
            return false;
        std::size_t at = id.size() + 4;
        std::uint64_t windowAt = tableEnd + 16;
        std::vector<std::shared_ptr<archive::SeekPoint>> points;
        std::uint64_t lastOut = 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            auto p = std::make_shared<archive::SeekPoint>();
            p->out = loadLE64(data.data() + at);
            p->in = loadLE64(data.data() + at + 8);
            p->bits = data[at + 16];
            const std::uint8_t flags = data[at + 17];
            p->windowDeflated = flags == 1;
            p->windowSize = loadLE32(data.data() + at + 18);
            p->windowLength = loadLE32(data.data() + at + 22);
            p->windowCrc = loadLE32(data.data() + at + 26);
            at += kPointHeader;
            // A deflated window is smaller than its bytes; a raw one is exactly them. Its
            // inflate is checked again on use (SeekPoint::windowBytes).
            if (p->out <= lastOut || p->out > entry.uncompressedSize ||
                p->in > entry.compressedSize || p->in == 0 || p->bits > 7 || flags > 1 ||
                p->windowSize > archive::kInflateWindow || p->windowSize > p->out ||
                (p->windowDeflated ? p->windowLength >= p->windowSize
                                   : p->windowLength != p->windowSize) ||
                in->size() - windowAt < p->windowLength)
                return false;
            p->windowFile = in;
            p->windowAt = windowAt;
            windowAt += p->windowLength;
            lastOut = p->out;
            points.push_back(std::move(p));
        }
        if (windowAt != in->size()) return false;
        for (auto& p : points) into.add(std::move(p));
        return true;
    } catch (const Error&) {
        return false;
    }
}

void saveSeekIndex(const std::filesystem::path& file, const archive::PakIndex& pak,
                   const archive::PakEntry& entry, const archive::SeekIndex& index) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec)
        throw Error(file.parent_path().string() + ": cannot create the folder: " + ec.message());
    Bytes out = identity(pak, entry, index.span());
    ByteWriter w(out);
    auto points = index.points();
    std::vector<Bytes> windows;
    windows.reserve(points.size());
    w.u32(std::uint32_t(points.size()));
    for (const auto& p : points) {
        windows.push_back(p->storedWindow());
        const Bytes& window = windows.back();
        w.u64(p->out);
        w.u64(p->in);
        w.u8(std::uint8_t(p->bits));
        w.u8(p->windowDeflated ? 1 : 0);
        w.u32(p->windowSize);
        w.u32(std::uint32_t(window.size()));
        w.u32(archive::windowCrc(window));
    }
    archive::Md5Digest sum = archive::md5(out);
    out.insert(out.end(), sum.begin(), sum.end());
    for (const Bytes& window : windows) out.insert(out.end(), window.begin(), window.end());
    AtomicOutputFile f(file);
    f.write(out);
    f.commit();
}

}  // namespace pakfs::fs
