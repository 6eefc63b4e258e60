// SPDX-License-Identifier: GPL-2.0-or-later
// Running a shell command with its output and errors captured, and starting a program with its
// stderr logged to a file.
#include "tests/support/TestUtil.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

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

pid_t spawnLogged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                  bool stdoutToo) {
    pid_t pid = ::fork();
    if (pid == 0) {
        int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) ::dup2(fd, 2);
        int out = stdoutToo ? fd : ::open("/dev/null", O_WRONLY);
        if (out >= 0) ::dup2(out, 1);
        std::vector<char*> cargv;
        for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
        cargv.push_back(nullptr);
        ::execv(cargv[0], cargv.data());
        ::_exit(127);
    }
    return pid;
}

}  // namespace pakfs::test
