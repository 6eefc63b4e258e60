// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON object of a check report (CheckJson.hpp).
#include "archive/ops/CheckJson.hpp"

namespace pakfs::archive {

nlohmann::ordered_json checkReportJson(const std::string& file, const CheckReport& r,
                                       const HashedNameCount& hashed) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& e : r.entries) {
        nlohmann::ordered_json item;
        item["path"] = e.path;
        if (e.gbx) item["gbx"] = *e.gbx;
        if (e.counterMode) item["counter_mode"] = true;
        if (!e.decode.empty()) {
            item["decode"] = e.decode;
            item["detail"] = e.detail;
        }
        if (!e.error.empty()) item["error"] = e.error;
        if (!e.unverified.empty()) item["unverified"] = e.unverified;
        entries.push_back(std::move(item));
    }
    nlohmann::ordered_json j;
    j["file"] = file;
    j["files"] = r.files;
    j["plain"] = r.plain;
    j["plain_unverified"] = r.plainUnverified;
    j["gbx"] = {{"parsed", r.gbxCount(GbxDecodeKind::Parsed)},
                {"header", r.gbxCount(GbxDecodeKind::Header)},
                {"exact", r.gbxCount(GbxDecodeKind::Exact)},
                {"verified", r.gbxCount(GbxDecodeKind::Verified)},
                {"refused", r.gbxCount(GbxDecodeKind::Refused)}};
    j["counter_mode"] = {{"proven", r.counterProven}, {"unverified", r.counterUnverified}};
    j["failed"] = r.failed;
    if (r.incomplete > 0) j["not_salvaged"] = r.incomplete;
    j["entries"] = std::move(entries);
    j["hashed_names"] = {{"resolved", hashed.resolved}, {"left", hashed.left}};
    return j;
}

}  // namespace pakfs::archive
