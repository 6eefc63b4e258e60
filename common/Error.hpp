// SPDX-License-Identifier: GPL-2.0-or-later
// The errors every part of pakfs throws: Error, TruncatedError, UsageError.
#pragma once

#include <stdexcept>
#include <string>

namespace pakfs {

// Every problem with input data or usage is reported as an Error whose message already names
// the file and the problem; frontends print what() as is and never add a stack trace.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Input that ends before a structure is complete. Separate so callers that read as far as
// a damaged file goes can tell "ran out" from "is wrong".
class TruncatedError : public Error {
public:
    using Error::Error;
};

// An option given wrong: a malformed value (a key that is not 32 hex digits), options that
// exclude each other. Its message names the option; frontends exit with their usage status.
class UsageError : public Error {
public:
    using Error::Error;
};

}  // namespace pakfs
