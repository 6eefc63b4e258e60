// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs::PakFile and pakfs::EntryReader over the archive libraries: the pak opened as `pak`
// opens it, files read as `pak cat` reads them.
#include <pakfs/pak_file.hpp>

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/ops/CheckJson.hpp"
#include "archive/ops/PakOpener.hpp"
#include "archive/stream/SeekPoints.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"
#include "lib/Wrap.hpp"

namespace pakfs {

using api::translated;

struct PakFile::Impl {
    std::string path;
    std::shared_ptr<const archive::PakIndex> pak;
    std::vector<std::string> warnings;
    bool allowUnproven = false;

    // As pak cat finds a file: the exact path, then without regard to case.
    const archive::PakEntry* lookUp(const std::string& name) const {
        for (const auto& e : pak->entries())
            if (e.path == name) return &e;
        const std::string want = foldCase(name);
        for (const auto& e : pak->entries())
            if (foldCase(e.path) == want) return &e;
        return nullptr;
    }

    const archive::PakEntry& find(const std::string& name) const {
        const archive::PakEntry* e = lookUp(name);
        if (!e)
            throw Exception(ErrorKind::missing_name,
                            pak->name() + ": no file \"" + name + "\" in the pak");
        if (e->encrypted && !pak->hasKey())
            throw Exception(ErrorKind::no_key, pak->name() + ": " + e->path +
                                                   ": needs the pack key, which was not given");
        return *e;
    }

    // A counter-mode file nothing proves, unless unproven bytes were asked for.
    void checkCounterMode(const archive::PakEntry& e) const {
        if (!e.counterMode) return;
        try {
            archive::checkCounterModeRead(*pak, e, allowUnproven);
        } catch (const Error& err) {
            throw Exception(
                archive::counterModeProven(e) ? ErrorKind::damaged_pack : ErrorKind::unproven,
                err.what());
        }
    }

    // Whether the file goes through the gbx pipeline (a counter-mode one never does).
    bool isGbx(const archive::PakEntry& e) const {
        return !e.counterMode && archive::isGbxEntry(*pak, e);
    }

    // A gbx file's bytes, proven (or, when asked for, the best decode).
    Bytes readGbx(const archive::PakEntry& e) const {
        archive::GbxDecodeOptions options;
        options.unverified = allowUnproven;
        archive::GbxDecode d = archive::decodeGbxEntryProven(pak, e, options);
        if (d.kind == archive::GbxDecodeKind::Refused)
            throw Exception(ErrorKind::unproven, d.detail);
        return std::move(d.bytes);
    }
};

namespace {

const char* compressionName(const archive::PakEntry& e) {
    switch (e.codec) {
        case archive::EntryCodec::Stored:
            return "stored";
        case archive::EntryCodec::Zlib:
            return "zlib";
        case archive::EntryCodec::Lz4:
            return "lz4";
    }
    return "unknown";
}

}  // namespace

PakFile::PakFile(const std::string& path, const OpenOptions& options) {
    impl_ = translated([&] {
        auto impl = std::make_shared<Impl>();
        impl->path = path;
        impl->allowUnproven = options.allow_unproven;
        const archive::KeyOptions keys{.keyHex = options.key,
                                       .keyFile = options.key_file,
                                       .packList = options.packlist,
                                       .baseKeyHex = options.base_key,
                                       .msKeyHex = options.ms_key};
        // Malformed keys first, as the pak command's option parser does.
        if (!keys.keyHex.empty()) (void)archive::parseKeyOption(keys.keyHex, "key");
        if (!keys.baseKeyHex.empty()) (void)archive::parseKeyOption(keys.baseKeyHex, "base_key");
        if (!keys.msKeyHex.empty()) (void)archive::parseKeyOption(keys.msKeyHex, "ms_key");
        archive::checkPakStart(path);
        auto opened = archive::openPak(path, keys);
        impl->pak = opened.pak;
        impl->warnings = opened.warnings;
        if (!impl->pak->metadataError().empty())
            impl->warnings.push_back(impl->pak->metadataError());
        return std::shared_ptr<const Impl>(std::move(impl));
    });
}

PakFile::PakFile(PakFile&&) noexcept = default;
PakFile& PakFile::operator=(PakFile&&) noexcept = default;
PakFile::~PakFile() = default;

const std::string& PakFile::path() const {
    return impl_->path;
}

unsigned PakFile::version() const {
    return impl_->pak->version();
}

std::vector<std::string> PakFile::warnings() const {
    return impl_->warnings;
}

std::vector<std::string> PakFile::names() const {
    std::vector<std::string> out;
    out.reserve(impl_->pak->entries().size());
    for (const auto& e : impl_->pak->entries()) out.push_back(e.path);
    return out;
}

bool PakFile::contains(const std::string& name) const {
    return impl_->lookUp(name) != nullptr;
}

EntryInfo PakFile::info(const std::string& name, bool prove) const {
    const archive::PakEntry* e = impl_->lookUp(name);
    if (!e)
        throw Exception(ErrorKind::missing_name,
                        impl_->pak->name() + ": no file \"" + name + "\" in the pak");
    return translated([&] {
        EntryInfo i;
        i.name = e->path;
        i.size = e->uncompressedSize;
        i.stored_size = e->compressedSize;
        i.class_id = e->classId;
        i.flags = e->flags;
        i.compression = compressionName(*e);
        i.encrypted = e->encrypted;
        const auto& pak = impl_->pak;
        // As pak ls -l says it (tools/pak/cmd_inspect.cpp).
        if (e->encrypted && !pak->hasKey()) {
            if (prove) i.decode = "locked";
            return i;
        }
        if (e->counterMode) {
            if (prove) {
                i.decode = archive::counterModeKind(*e);
                i.detail = archive::counterModeDetail(*e);
            }
            return i;
        }
        try {
            i.gbx = archive::isGbxEntry(*pak, *e);
        } catch (const Error& err) {
            if (prove) {
                i.decode = "error";
                i.detail = err.what();
            }
            return i;
        }
        if (!prove) return i;
        if (!i.gbx) {
            i.decode = "-";
        } else {
            archive::GbxDecode d = archive::decodeGbxEntryProven(pak, *e);
            i.decode = d.kind == archive::GbxDecodeKind::Refused
                           ? "gbx!"
                           : std::string("gbx:") + archive::gbxDecodeKindName(d.kind);
            i.detail = d.detail;
        }
        return i;
    });
}

std::vector<EntryInfo> PakFile::infos(bool prove) const {
    std::vector<EntryInfo> out;
    for (const auto& e : impl_->pak->entries()) out.push_back(info(e.path, prove));
    return out;
}

std::vector<std::uint8_t> PakFile::read(const std::string& name) const {
    return translated([&]() -> std::vector<std::uint8_t> {
        const archive::PakEntry& e = impl_->find(name);
        impl_->checkCounterMode(e);
        if (impl_->isGbx(e)) return impl_->readGbx(e);
        archive::GbxDecodeOptions options;
        options.unverified = impl_->allowUnproven;
        return archive::readEntry(impl_->pak, e, options);
    });
}

// The object of pak check --json (tools/pak/cmd_check.cpp), key for key: a test compares them.
std::string PakFile::check_json() const {
    return translated([&] {
        auto j = archive::checkReportJson(impl_->path, archive::checkPak(impl_->pak),
                                          archive::countHashedNames(*impl_->pak));
        j.erase("file");  // the PakFile knows its path
        return j.dump();
    });
}

// A plain file streams through PlainEntryReader (seek points kept for going back); a gbx file
// is decoded whole first, as the game's pipeline needs.
struct EntryReader::Impl {
    std::shared_ptr<const void> owner;  // the PakFile's data: keeps the pak open
    std::unique_ptr<archive::PlainEntryReader> plain;
    Bytes whole;
    std::uint64_t size = 0;
    std::uint64_t at = 0;  // for `whole`
};

EntryReader PakFile::open(const std::string& name) const {
    return translated([&] {
        auto r = std::make_unique<EntryReader::Impl>();
        r->owner = impl_;
        const archive::PakEntry& e = impl_->find(name);
        impl_->checkCounterMode(e);
        r->size = e.uncompressedSize;
        if (impl_->isGbx(e)) {
            r->whole = impl_->readGbx(e);
            r->size = r->whole.size();
        } else {
            archive::ReadRequest request;
            if (e.compressed() && !(e.counterMode && !archive::counterModeProven(e))) {
                constexpr std::size_t kPoints = 64;
                request = archive::ReadRequest::points(std::make_shared<archive::SeekIndex>(
                    archive::SeekIndex::spanFor(e.uncompressedSize, 1u << 20, kPoints), kPoints));
            }
            request.allowUnverified(impl_->allowUnproven);
            r->plain = std::make_unique<archive::PlainEntryReader>(impl_->pak, e, request);
        }
        return EntryReader(std::move(r));
    });
}

EntryReader::EntryReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
EntryReader::EntryReader(EntryReader&&) noexcept = default;
EntryReader& EntryReader::operator=(EntryReader&&) noexcept = default;
EntryReader::~EntryReader() = default;

std::size_t EntryReader::read(void* buffer, std::size_t size) {
    return translated([&]() -> std::size_t {
        if (impl_->plain) return impl_->plain->read(static_cast<std::uint8_t*>(buffer), size);
        const std::size_t n = std::size_t(std::min<std::uint64_t>(
            size, impl_->whole.size() - std::min<std::uint64_t>(impl_->at, impl_->whole.size())));
        if (n > 0) std::memcpy(buffer, impl_->whole.data() + impl_->at, n);
        impl_->at += n;
        return n;
    });
}

void EntryReader::seek(std::uint64_t offset) {
    if (offset > impl_->size)
        throw Exception(ErrorKind::usage, "seek to " + std::to_string(offset) +
                                              ", past the end of a file of " +
                                              std::to_string(impl_->size) + " bytes");
    translated([&] {
        if (impl_->plain)
            impl_->plain->seek(offset);
        else
            impl_->at = offset;
    });
}

std::uint64_t EntryReader::tell() const {
    return impl_->plain ? impl_->plain->position() : impl_->at;
}

std::uint64_t EntryReader::size() const {
    return impl_->size;
}

}  // namespace pakfs
