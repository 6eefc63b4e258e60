// SPDX-License-Identifier: GPL-2.0-or-later
// The slots of a planned pak (copied from the base or encoded), produced in plan order on worker
// threads, for the writer to lay out.
#pragma once

#include <cstdint>
#include <functional>
#include <system_error>

#include "archive/cipher/Crypto.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PackOptions.hpp"
#include "archive/write/PackPlan.hpp"

namespace pakfs::archive {

// The bytes a planned file will hold (for progress).
std::uint64_t plannedSize(const PlanFile& f, std::error_code& ec);

// Produces every planned file's slot on options.jobs threads and hands each to `consume` (its
// index in the plan, its decoded size, the slot) in plan order, on this thread: the output is
// the same for any number of threads. `slotBytes`: a copied slot comes with its bytes (else
// with where they are in the base). `result` gets the bytes read and the slots copied.
// A gbx file whose cipher cannot be planned does not stop it: from the first one on nothing is
// handed to `consume`, every other file is still planned, and the Error at the end lists them
// all (so one run names every file to deal with, and each file is planned once).
// `beforeWait`, when given, is called on this thread before it waits for a file the workers
// encode: the writer copies what it has gathered meanwhile, so the copy overlaps the encoding.
void produceInOrder(const PackPlan& plan, const Blowfish& cipher, const PackOptions& options,
                    bool slotBytes, PackResult& result,
                    const std::function<void(std::size_t, std::uint32_t, EncodedEntry&)>& consume,
                    const std::function<void()>& beforeWait = {});

}  // namespace pakfs::archive
