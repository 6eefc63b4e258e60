// SPDX-License-Identifier: GPL-2.0-or-later
// How many CPUs this process may use: what thread counts are sized by.
#pragma once

#include <filesystem>
#include <string>

namespace pakfs {

// The calling thread's CPU affinity (as taskset(1) sets it), capped by a cgroup v2 CPU quota
// (cpu.max of the process's cgroup and those above it); at least 1.
int availableCpus();

// The CPUs a cgroup v2 quota allows a process in `cgroup` (the path of /proc/self/cgroup's "0::"
// line), from cpu.max under `root` for it and each cgroup above it, the least of them, rounded,
// at least 1; 0 when none sets a quota.
int cgroupQuotaCpus(const std::filesystem::path& root, const std::string& cgroup);

}  // namespace pakfs
