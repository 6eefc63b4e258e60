// SPDX-License-Identifier: GPL-2.0-or-later
// A check report as the one JSON object `pak check --json` prints and libpakfs's check_json
// returns (one writer, so the two cannot drift apart).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "archive/ops/Check.hpp"
#include "archive/ops/HashedNames.hpp"

namespace pakfs::archive {

// {file, files, plain, plain_unverified, gbx: {...}, counter_mode: {...}, failed,
// [not_salvaged], entries: [...], hashed_names: {resolved, left}}.
nlohmann::ordered_json checkReportJson(const std::string& file, const CheckReport& report,
                                       const HashedNameCount& hashed);

}  // namespace pakfs::archive
