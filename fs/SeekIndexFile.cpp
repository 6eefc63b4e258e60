// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/SeekIndexFile.hpp"

#include <cstdlib>
#include <cstring>

#include "archive/File.hpp"

namespace pakfs::fs {

namespace {

// Version 2 keeps the windows deflated; a version 1 file fails the identity check and is
// built again.
constexpr char kMagic[8] = {'P', 'A', 'K', 'F', 'S', 'S', 'K', '2'};
constexpr std::size_t kPointHeader = 8 + 8 + 1 + 1 + 4 + 4;

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
        auto in = archive::InputFile::open(file);
        // At most the points the index keeps, each with up to 32 KiB of window.
        const Bytes id = identity(pak, entry, into.span());
        const std::uint64_t maxSize =
            id.size() + 4 + std::uint64_t(into.maxPoints()) * (kPointHeader + 32768);
        if (in->size() < id.size() + 4 + 16 || in->size() > maxSize + 16) return false;
        Bytes data = in->readAt(0, std::size_t(in->size()));
        if (!std::equal(id.begin(), id.end(), data.begin())) return false;
        archive::Md5Digest sum = archive::md5(ByteSpan(data).first(data.size() - 16));
        if (!std::equal(sum.begin(), sum.end(), data.end() - 16)) return false;
        data.resize(data.size() - 16);
        std::size_t at = id.size();
        std::uint32_t count = loadLE32(data.data() + at);
        at += 4;
        std::vector<std::shared_ptr<archive::SeekPoint>> points;
        std::uint64_t lastOut = 0;
        if (count > into.maxPoints()) return false;
        for (std::uint32_t i = 0; i < count; ++i) {
            if (data.size() - at < kPointHeader) return false;
            auto p = std::make_shared<archive::SeekPoint>();
            p->out = loadLE64(data.data() + at);
            p->in = loadLE64(data.data() + at + 8);
            p->bits = data[at + 16];
            const std::uint8_t flags = data[at + 17];
            p->windowDeflated = flags == 1;
            p->windowSize = loadLE32(data.data() + at + 18);
            std::uint32_t len = loadLE32(data.data() + at + 22);
            at += kPointHeader;
            // A deflated window is smaller than its bytes; a raw one is exactly them. Its
            // inflate is checked again on use (SeekPoint::windowBytes).
            if (p->out <= lastOut || p->out > entry.uncompressedSize ||
                p->in > entry.compressedSize || p->in == 0 || p->bits > 7 || flags > 1 ||
                p->windowSize > archive::kInflateWindow || p->windowSize > p->out ||
                (p->windowDeflated ? len >= p->windowSize : len != p->windowSize) ||
                data.size() - at < len)
                return false;
            p->window.assign(data.begin() + std::ptrdiff_t(at),
                             data.begin() + std::ptrdiff_t(at + len));
            at += len;
            lastOut = p->out;
            points.push_back(std::move(p));
        }
        if (at != data.size()) return false;
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
    w.u32(std::uint32_t(points.size()));
    for (const auto& p : points) {
        w.u64(p->out);
        w.u64(p->in);
        w.u8(std::uint8_t(p->bits));
        w.u8(p->windowDeflated ? 1 : 0);
        w.u32(p->windowSize);
        w.u32(std::uint32_t(p->window.size()));
        w.bytes(p->window);
    }
    archive::Md5Digest sum = archive::md5(out);
    out.insert(out.end(), sum.begin(), sum.end());
    archive::AtomicOutputFile f(file);
    f.write(out);
    f.commit();
}

}  // namespace pakfs::fs
