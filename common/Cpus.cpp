// SPDX-License-Identifier: GPL-2.0-or-later
// The CPUs this process may use: its affinity mask, capped by the lowest cgroup v2 cpu.max
// quota from its cgroup up to the root (read once).
#include "common/Cpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <sched.h>

namespace pakfs {

namespace {

// The process's cgroup quota (cgroupQuotaCpus), read once: a process's cgroup rarely changes,
// and this is several file reads.
int cgroupCpus() {
    static const int cpus = [] {
        std::ifstream self("/proc/self/cgroup");
        std::string line, path;
        while (std::getline(self, line))
            if (line.rfind("0::", 0) == 0) path = line.substr(3);
        return cgroupQuotaCpus("/sys/fs/cgroup", path);
    }();
    return cpus;
}

}  // namespace

int cgroupQuotaCpus(const std::filesystem::path& root, const std::string& cgroup) {
    if (cgroup.empty() || cgroup[0] != '/') return 0;
    double least = 0;
    for (std::filesystem::path at = cgroup;; at = at.parent_path()) {
        std::ifstream max(root.string() + at.string() + "/cpu.max");
        std::string quota;
        double period = 0;
        if (max >> quota >> period && quota != "max" && period > 0) {
            char* end = nullptr;
            const double q = std::strtod(quota.c_str(), &end);
            if (end && *end == 0 && q > 0 && (least == 0 || q / period < least)) least = q / period;
        }
        if (at == at.parent_path()) break;
    }
    return least == 0 ? 0 : std::max(1, int(least + 0.5));
}

int availableCpus() {
    cpu_set_t mask;
    int cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 1;
    if (const int quota = cgroupCpus(); quota > 0) cpus = std::min(cpus, quota);
    return std::max(cpus, 1);
}

}  // namespace pakfs
