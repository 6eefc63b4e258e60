// SPDX-License-Identifier: GPL-2.0-or-later
// pak diff: the files two paks do not share, and those whose content or table fields differ.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "archive/ops/Diff.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

namespace {

// diff(1)'s exit codes, which this command keeps: the same, different, trouble.
constexpr int kDiffSame = 0;
constexpr int kDiffDiffers = 1;
constexpr int kDiffTrouble = 2;

const char* diffCodecName(std::uint64_t codec) {
    switch (EntryCodec(codec)) {
        case EntryCodec::Stored:
            return "stored";
        case EntryCodec::Zlib:
            return "zlib";
        case EntryCodec::Lz4:
            return "lz4";
    }
    return "?";
}

// The name of a field in the text output and the key in --json.
const char* diffFieldName(DiffField f, bool json) {
    switch (f) {
        case DiffField::Path:
            return "path";
        case DiffField::ClassId:
            return json ? "class_id" : "class";
        case DiffField::Flags:
            return "flags";
        case DiffField::Record:
            return "record";
        case DiffField::Compression:
            return "compression";
    }
    return "?";
}

// A field's value as `pak ls --json` shows it.
std::pair<std::string, std::string> diffFieldValues(const FieldChange& c) {
    switch (c.field) {
        case DiffField::Path:
            return {c.pathA, c.pathB};
        case DiffField::ClassId:
        case DiffField::Record:
            return {hex32(std::uint32_t(c.a)), hex32(std::uint32_t(c.b))};
        case DiffField::Flags:
            return {hex64(c.a), hex64(c.b)};
        case DiffField::Compression:
            return {diffCodecName(c.a), diffCodecName(c.b)};
    }
    return {};
}

// "A path", "D path", "M path", "F path: class X -> Y, flags ...": a changed file's line lists
// its other fields too.
void printDiffLine(const EntryDiff& d) {
    static constexpr char kLetter[] = {'A', 'D', 'M', 'F'};
    std::string line = std::string(1, kLetter[std::size_t(d.kind)]) + " " + d.path;
    for (std::size_t i = 0; i < d.fields.size(); ++i) {
        const auto [a, b] = diffFieldValues(d.fields[i]);
        line += (i == 0 ? ": " : ", ") + std::string(diffFieldName(d.fields[i].field, false)) +
                " " + a + " -> " + b;
    }
    std::printf("%s\n", line.c_str());
}

nlohmann::ordered_json diffJson(const std::string& a, const std::string& b, const DiffReport& r) {
    static constexpr const char* kChange[] = {"added", "deleted", "changed", "fields"};
    nlohmann::ordered_json differences = nlohmann::ordered_json::array();
    for (const auto& d : r.entries) {
        nlohmann::ordered_json item;
        item["path"] = d.path;
        item["change"] = kChange[std::size_t(d.kind)];
        if (!d.fields.empty()) {
            nlohmann::ordered_json fields = nlohmann::ordered_json::object();
            for (const auto& c : d.fields) {
                const auto [va, vb] = diffFieldValues(c);
                fields[diffFieldName(c.field, true)] = {{"a", va}, {"b", vb}};
            }
            item["fields"] = std::move(fields);
        }
        differences.push_back(std::move(item));
    }
    nlohmann::ordered_json j;
    j["a"] = a;
    j["b"] = b;
    j["files_a"] = r.filesA;
    j["files_b"] = r.filesB;
    j["added"] = r.added;
    j["deleted"] = r.deleted;
    j["changed"] = r.changed;
    j["fields_only"] = r.fieldsOnly;
    j["same"] = r.same;
    j["not_decoded"] = r.notDecoded;
    j["differences"] = std::move(differences);
    j["errors"] = r.errors;
    return j;
}

// The counts, on stderr after the lines.
void printDiffSummary(const std::string& a, const std::string& b, const DiffReport& r) {
    std::string line = a + " -> " + b + ": " + std::to_string(r.added) + " added, " +
                       std::to_string(r.deleted) + " deleted, " + std::to_string(r.changed) +
                       " changed, " + std::to_string(r.same) + " the same content (" +
                       std::to_string(r.fieldsOnly) + " with other table fields, " +
                       std::to_string(r.notDecoded) + " found the same without decoding)";
    if (!r.errors.empty()) line += ", " + std::to_string(r.errors.size()) + " not compared";
    std::fprintf(stderr, "%s\n", line.c_str());
}

// --key-b and the like: the key options of the second pak.
void addKeyOptionsOfB(CLI::App* cmd, KeyOptions& keys) {
    cmd->add_option("--key-b", keys.keyHex, "B's 16-byte Blowfish key as 32 hex digits");
    cmd->add_option("--key-file-b", keys.keyFile,
                    "File holding B's key (16 bytes or 32 hex digits)");
    cmd->add_option("--packlist-b", keys.packList, "packlist.dat to take B's key from");
    cmd->add_option("--base-key-b", keys.baseKeyHex,
                    "Version 6+: B's base key as 32 hex digits (as --base-key)");
    cmd->add_option("--ms-key-b", keys.msKeyHex,
                    "Version 6+: a master server key for B as 32 hex digits (as --ms-key)");
}

bool anyKeyOption(const KeyOptions& k) {
    return !k.keyHex.empty() || !k.keyFile.empty() || !k.packList.empty() ||
           !k.baseKeyHex.empty() || !k.msKeyHex.empty();
}

// B's key: its own options when any is given; else A's options, as they find a key for B;
// when they find none, the key A was opened with.
KeyOptions keysForB(const std::string& pathB, const KeyOptions& keysA, const KeyOptions& keysB,
                    const PakIndex& a) {
    if (anyKeyOption(keysB)) return keysB;
    if (!a.hasKey()) return keysA;
    KeyOptions sameAsA;
    sameAsA.keyHex = hexString(ByteSpan(a.key().data(), a.key().size()));
    try {
        if (resolvePakKey(pathB, keysA).key) return keysA;
    } catch (const Error&) {
        // No key for B there (or no B at all: opening it says so).
    }
    return sameAsA;
}

}  // namespace

void addDiffCommands(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand(
        "diff",
        "Compare two paks of any versions: one line per file that differs, then the counts");
    cmd->footer(
        "Lines, by path: A PATH only in B, D PATH only in A, M PATH other content (decoded bytes,\n"
        "by SHA-256), F PATH: class X -> Y, ... other table fields (path spelling, class, flags,\n"
        "record, compression); the counts on stderr. Paths match without regard to case. B opens\n"
        "with the -b key options, else with A's as they find its key, else with A's key. Exit as\n"
        "diff(1): 0 the same content, 1 different, 2 trouble (a pak or a file that does not read)");
    auto keysA = std::make_shared<KeyOptions>();
    auto keysB = std::make_shared<KeyOptions>();
    auto pathA = std::make_shared<std::string>();
    auto pathB = std::make_shared<std::string>();
    cmd->add_option("A", *pathA, "The first .pak file (the original)")->required();
    cmd->add_option("B", *pathB, "The second .pak file (the one to compare with A)")->required();
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json,
                  "One JSON object: {a, b, files_a, files_b, added, deleted, changed, "
                  "fields_only, same, not_decoded, differences: [{path, change (added, "
                  "deleted, changed or fields), fields: {NAME: {a, b}}}], errors}");
    auto fields = std::make_shared<bool>(false);
    cmd->add_flag("--fields", *fields,
                  "Field differences count too: exit 1 also when only table fields differ");
    auto scan = std::make_shared<ScanArgs>();
    addScanOptions(cmd, *scan);
    addKeyOptions(cmd, *keysA);
    addKeyOptionsOfB(cmd, *keysB);
    cmd->callback([=, &exitCode] {
        // Trouble is exit 2 here, not pak's usual 1.
        try {
            // Names from the references of both: a file of one may name a file of the other.
            auto a = openAndWarn(*pathA, *keysA, false);
            auto b = openAndWarn(*pathB, keysForB(*pathB, *keysA, *keysB, *a), false);
            auto named = nameTogether({a, b}, !scan->hashedNames, scan->names);
            a = named[0];
            b = named[1];
            DiffReport report;
            {
                Progress progress(scan->quiet);
                DiffOptions options;
                options.progress = progress.callback();
                report = diffPaks(a, b, options);
            }
            if (*json) {
                std::cout << diffJson(a->name(), b->name(), report).dump(2) << "\n";
            } else {
                for (const auto& d : report.entries) printDiffLine(d);
                std::fflush(stdout);
            }
            for (const auto& e : report.errors) std::fprintf(stderr, "pak: %s\n", e.c_str());
            printDiffSummary(a->name(), b->name(), report);
            if (!report.errors.empty())
                exitCode = kDiffTrouble;
            else if (report.contentDiffers() || (*fields && report.withOtherFields() > 0))
                exitCode = kDiffDiffers;
            else
                exitCode = kDiffSame;
        } catch (const std::exception& e) {
            std::fflush(stdout);
            std::fprintf(stderr, "pak: %s\n", e.what());
            exitCode = kDiffTrouble;
        }
    });
}

}  // namespace pakfs::cli
