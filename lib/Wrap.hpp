// SPDX-License-Identifier: GPL-2.0-or-later
// Inside the library: turning the internal errors into pakfs::Exception at the public surface.
#pragma once

#include <string>

#include <pakfs/error.hpp>

namespace pakfs::api {

// The kind of an internal error's message: the key's errors by what the opener says, the
// rest a damaged pack or a file that cannot be read.
ErrorKind kindOfMessage(const std::string& message);

// Called in a catch block: rethrows the exception being handled as a pakfs::Exception (one
// already is passes through; std::bad_alloc too).
[[noreturn]] void rethrowPublic();

// Runs `f`, its internal errors thrown as pakfs::Exception.
template <typename F>
auto translated(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (...) {
        rethrowPublic();
    }
}

}  // namespace pakfs::api
