// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs::Exception: the one exception type the library throws, and the kinds it tells apart.
#pragma once

#include <stdexcept>
#include <string>

#include <pakfs/export.hpp>

namespace pakfs {

// What went wrong, for a program that acts on it; the message says it for a person.
enum class ErrorKind {
    no_key,        // the pak needs a key and none was given or found (no packlist.dat entry)
    wrong_key,     // the key does not fit the pak (its header does not decrypt to its MD5)
    damaged_pack,  // not a pak, cut short, or damaged (a file's bytes do not decode)
    missing_name,  // no file of that name in the pak
    unproven,      // a file whose bytes cannot be proven (OpenOptions::allow_unproven reads it)
    io,            // the file cannot be read: no such file, no permission, a folder
    usage,         // an option given wrong (a key that is not 32 hex digits, two keys at once)
};

// "no_key", "wrong_key", ... as the enumerator is spelled.
PAKFS_API const char* error_kind_name(ErrorKind kind) noexcept;

// Every error the library reports. what() is the message the pak command prints for the same
// problem (without its "pak: " prefix): it names the file and, inside a pak, the path.
class PAKFS_API Exception : public std::runtime_error {
public:
    Exception(ErrorKind kind, const std::string& message);
    ErrorKind kind() const noexcept { return kind_; }

private:
    ErrorKind kind_;
};

}  // namespace pakfs
