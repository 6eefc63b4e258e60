// SPDX-License-Identifier: GPL-2.0-or-later
#include "tests/support/TestUtil.hpp"

#include <sys/wait.h>

#include <cstdio>

namespace pakfs::test {

RunResult run(const std::string& command) {
    TempDir tmp;
    std::string full = command + " >" + (tmp / "out").string() + " 2>" + (tmp / "err").string();
    int status = std::system(full.c_str());
    RunResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    Bytes out = readFile(tmp / "out"), err = readFile(tmp / "err");
    r.out.assign(out.begin(), out.end());
    r.err.assign(err.begin(), err.end());
    return r;
}

}  // namespace pakfs::test
