// SPDX-License-Identifier: GPL-2.0-or-later
// The knobs of the plain entry reader's strategies, one struct the caller passes in.
#pragma once

#include <cstdint>

#include "common/Cpus.hpp"

namespace pakfs::archive {

// Defaults are what the CLI and the mount use; tests lower the sizes to reach a strategy with
// small entries, and the benchmarks may set them.
struct ReadTuning {
    // zlib entries up to this many bytes that are read from their start without an index
    // inflate whole with libdeflate; larger ones stream through ISA-L.
    std::uint64_t wholeInflateLimit = 64ull << 20;
    // A reader with an index it does not record into, sent from the entry's start at least this
    // far into a zlib entry, decodes on two cores (SpeculativeInflate.hpp).
    std::uint64_t twoCoresMin = 16ull << 20;
    // Tests: such a reader waits for the other thread's guess of a block start instead of going
    // on alone when it has none yet (so that the two-core path runs however busy the machine),
    // and for its points to be in the index before it reads on.
    bool twoCoresWait = false;
    // The CPUs the readers count on: with fewer than two they neither decrypt ahead on another
    // thread nor decode on two cores (the threads would take turns on one CPU: a first read took
    // 1.1x the sequential decode). 0: availableCpus() (common/Cpus.hpp).
    int usableCpus = 0;

    int cpus() const { return usableCpus > 0 ? usableCpus : availableCpus(); }
};

}  // namespace pakfs::archive
