// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs::Exception, and the one place that maps the internal errors onto its kinds.
#include <pakfs/pakfs.hpp>

#include <new>
#include <string>
#include <system_error>

#include "common/Error.hpp"
#include "lib/Wrap.hpp"

namespace pakfs {

Exception::Exception(ErrorKind kind, const std::string& message)
    : std::runtime_error(message), kind_(kind) {}

const char* error_kind_name(ErrorKind kind) noexcept {
    switch (kind) {
        case ErrorKind::no_key:
            return "no_key";
        case ErrorKind::wrong_key:
            return "wrong_key";
        case ErrorKind::damaged_pack:
            return "damaged_pack";
        case ErrorKind::missing_name:
            return "missing_name";
        case ErrorKind::unproven:
            return "unproven";
        case ErrorKind::io:
            return "io";
        case ErrorKind::usage:
            return "usage";
    }
    return "unknown";
}

namespace api {

ErrorKind kindOfMessage(const std::string& m) {
    const auto has = [&](const char* s) { return m.find(s) != std::string::npos; };
    // The opener's words (archive/pak/PackList.cpp, PakIndex.cpp): a test of each kind keeps
    // them in step.
    if (has("no key given") || has("no key was given") || has("has no entry for pack") ||
        has(": the header is private: give the pack key"))
        return ErrorKind::no_key;
    if (has("wrong key")) return ErrorKind::wrong_key;
    // InputFile's (common/File.cpp): the file itself cannot be read.
    if (has(": no such file") || has(": is a folder, not a file") || has(": cannot open: ") ||
        has(": read error: ") || has(": not a regular file"))
        return ErrorKind::io;
    return ErrorKind::damaged_pack;
}

void rethrowPublic() {
    try {
        throw;
    } catch (const Exception&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const UsageError& e) {
        throw Exception(ErrorKind::usage, e.what());
    } catch (const Error& e) {
        throw Exception(kindOfMessage(e.what()), e.what());
    } catch (const std::system_error& e) {
        throw Exception(ErrorKind::io, e.what());
    } catch (const std::exception& e) {
        throw Exception(ErrorKind::damaged_pack, e.what());
    }
}

}  // namespace api

const char* version() noexcept {
    return PAKFS_LIBRARY_VERSION;
}

}  // namespace pakfs
