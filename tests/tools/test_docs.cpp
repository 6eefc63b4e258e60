// SPDX-License-Identifier: GPL-2.0-or-later
// The documentation against the tool: every subcommand's --help, and what pak(1) states in its
// SYNOPSIS and EXIT STATUS, checked by running pak.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/Cli.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::readText;
using test::run;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The names listed under "Subcommands:" in a --help.
std::vector<std::string> subcommandsOf(const std::string& help) {
    std::vector<std::string> out;
    bool in = false;
    for (const auto& line : lines(help)) {
        if (line == "Subcommands:") {
            in = true;
        } else if (in && line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ') {
            out.push_back(words(line).at(0));
        }
    }
    return out;
}

// The options of a --help, one set of names (e.g. {-j, --jobs}) per option, without the help
// options every command has.
std::vector<std::set<std::string>> optionsOf(const std::string& help) {
    std::vector<std::set<std::string>> out;
    bool in = false;
    for (const auto& line : lines(help)) {
        if (line == "Options:") {
            in = true;
            continue;
        }
        if (!in || line.rfind("  -", 0) != 0) continue;
        std::set<std::string> names;
        std::string first = words(line).at(0);
        std::size_t start = 0;
        while (start <= first.size()) {
            std::size_t comma = first.find(',', start);
            if (comma == std::string::npos) comma = first.size();
            names.insert(first.substr(start, comma - start));
            start = comma + 1;
        }
        if (names.count("--help") || names.count("--help-all")) continue;
        out.push_back(names);
    }
    return out;
}

// The lines of a man page section (.SH NAME) up to the next .SH.
std::vector<std::string> manSection(const std::string& page, const std::string& name) {
    std::vector<std::string> out;
    bool in = false;
    for (const auto& line : lines(page)) {
        if (line.rfind(".SH ", 0) == 0) {
            if (in) break;
            in = line == ".SH " + name || line == ".SH \"" + name + "\"";
            continue;
        }
        if (in) out.push_back(line);
    }
    return out;
}

// roff's "\-" is a minus sign: the options are written with it. Font changes (\fB, \fI, \fP,
// \fR) are dropped.
std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '-') {
            out += '-';
            ++i;
        } else if (s[i] == '\\' && i + 2 < s.size() && s[i + 1] == 'f') {
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

// The options a piece of SYNOPSIS text names: words starting with '-', brackets and the
// like taken off; KEY-OPTIONS stands for `keyOptions`.
std::set<std::string> optionsNamed(const std::string& text,
                                   const std::set<std::string>& keyOptions) {
    std::set<std::string> out;
    for (std::string w : words(unescape(text))) {
        while (!w.empty() && std::string("[](|").find(w.front()) != std::string::npos)
            w.erase(0, 1);
        while (!w.empty() && std::string("[](|.,").find(w.back()) != std::string::npos)
            w.pop_back();
        if (w == "KEY-OPTIONS") out.insert(keyOptions.begin(), keyOptions.end());
        if (w.size() >= 2 && w[0] == '-' && w != "-") out.insert(w);
    }
    return out;
}

// pak(1)'s SYNOPSIS: the options named for each subcommand ("ls", "packlist add", ...), the
// entries of one subcommand ("commit" and "commit --patch") joined.
std::map<std::string, std::set<std::string>> synopsisOptions(const std::string& page) {
    const std::vector<std::string> synopsis = manSection(page, "SYNOPSIS");
    // "KEY-OPTIONS are --key HEX32, ...": the paragraph after the entries.
    std::set<std::string> keyOptions;
    bool keyParagraph = false;
    for (const auto& line : synopsis) {
        if (line == ".I KEY-OPTIONS") keyParagraph = true;
        if (keyParagraph)
            for (const auto& o : optionsNamed(line, {})) keyOptions.insert(o);
    }
    REQUIRE(keyOptions.count("--key") == 1);

    std::map<std::string, std::set<std::string>> out;
    std::string entry;
    auto flush = [&] {
        const std::string text = entry;
        entry.clear();
        const std::vector<std::string> w = words(unescape(text));
        if (w.size() < 3 || w[0] != ".B" || w[1] != "pak") return;
        std::string command;
        for (std::size_t i = 2; i < w.size() && w[i][0] != '-' && w[i][0] != '.'; ++i)
            command += (command.empty() ? "" : " ") + w[i];
        if (command.empty()) return;  // pak --help, pak --version
        auto& named = out[command];   // a command with no option is listed too
        for (const auto& o : optionsNamed(text, keyOptions)) named.insert(o);
    };
    for (const auto& line : synopsis) {
        if (line == ".br" || line == ".PP") {
            flush();
            continue;
        }
        entry += line + "\n";
    }
    flush();
    return out;
}

}  // namespace

TEST_CASE("docs: every subcommand's --help exits 0 and prints its usage line", "[cli][docs]") {
    auto top = run(kPak + " --help");
    REQUIRE(top.code == 0);
    CHECK(top.err.empty());
    CHECK(top.out.find("Usage: " + kPak + " [OPTIONS] SUBCOMMAND\n") != std::string::npos);
    // Every command the help lists, and those of the command groups, found from the helps
    // themselves so that a new one is not missed.
    std::vector<std::string> commands;
    for (const auto& c : subcommandsOf(top.out)) {
        commands.push_back(c);
        auto group = run(kPak + " " + c + " --help");
        for (const auto& sub : subcommandsOf(group.out)) commands.push_back(c + " " + sub);
    }
    for (const char* c : {"info", "ls", "cat", "extract", "pack", "check", "commit", "diff", "add",
                          "rm", "mv", "packlist", "packlist ls", "packlist add", "gbx", "gbx info",
                          "gbx refs", "gbx thumbnail"})
        CHECK(std::find(commands.begin(), commands.end(), c) != commands.end());
    for (const auto& c : commands) {
        INFO("pak " << c << " --help");
        auto r = run(kPak + " " + c + " --help");
        CHECK(r.code == 0);
        CHECK(r.err.empty());
        CHECK(r.out.find("Usage: " + kPak + " " + c + " [OPTIONS]") != std::string::npos);
    }
}

TEST_CASE("docs: a subcommand is one short line in its parent's --help", "[cli][docs]") {
    for (const char* parent : {"", " gbx", " packlist"}) {
        auto r = run(kPak + parent + " --help");
        REQUIRE(r.code == 0);
        bool in = false;
        std::size_t listed = 0;
        for (const auto& line : lines(r.out)) {
            if (line == "Subcommands:") {
                in = true;
                continue;
            }
            if (!in) continue;
            if (line.empty()) break;
            INFO("pak" << parent << " --help: " << line);
            // The name from column 2 (a line starting further in would continue a description),
            // the description from column 30 in at most 92 columns.
            CHECK(line.rfind("  ", 0) == 0);
            CHECK(line[2] != ' ');
            CHECK(line.size() <= 30 + 92);
            ++listed;
        }
        CHECK(listed >= 2);
    }
}

TEST_CASE("docs: a command's --help says what its lines mean and its exit status", "[cli][docs]") {
    auto check = run(kPak + " check --help");
    REQUIRE(check.code == 0);
    for (const char* said : {"gbx parsed", "header", "exact", "verified", "gbx refused", "counter",
                             "counter:unverified", "plain unverified", "undecodable",
                             "Exit 1 if any is refused, counter:unverified or fails", "--strict"})
        CHECK(check.out.find(said) != std::string::npos);
    auto diff = run(kPak + " diff --help");
    REQUIRE(diff.code == 0);
    for (const char* said : {"A PATH only in B", "D PATH only in A", "M PATH", "F PATH",
                             "0 the same content, 1 different, 2 trouble"})
        CHECK(diff.out.find(said) != std::string::npos);
    for (const char* gbx : {" gbx info", " gbx thumbnail"}) {
        auto r = run(kPak + gbx + " --help");
        REQUIRE(r.code == 0);
        CHECK(r.out.find("exit code") != std::string::npos);
    }
}

TEST_CASE("docs: pak(1)'s SYNOPSIS names exactly the options of each subcommand's --help",
          "[cli][docs]") {
    const std::string page = readText(test::sourceDir() / "doc/pak.1");
    const auto synopsis = synopsisOptions(page);
    const std::set<std::string> expected = {
        "info",         "ls",       "cat",      "extract",      "pack", "commit",
        "check",        "diff",     "add",      "rm",           "mv",   "packlist ls",
        "packlist add", "gbx info", "gbx refs", "gbx thumbnail"};
    std::set<std::string> listed;
    for (const auto& [command, options] : synopsis) listed.insert(command);
    CHECK(listed == expected);
    for (const auto& [command, named] : synopsis) {
        INFO("pak " << command);
        auto r = run(kPak + " " + command + " --help");
        REQUIRE(r.code == 0);
        std::set<std::string> known;
        for (const auto& names : optionsOf(r.out)) {
            known.insert(names.begin(), names.end());
            bool documented = false;
            for (const auto& n : names) documented = documented || named.count(n) > 0;
            INFO("an option of --help missing from the SYNOPSIS: " << *names.rbegin());
            CHECK(documented);
        }
        for (const auto& n : named) {
            INFO("an option of the SYNOPSIS that --help does not know: " << n);
            CHECK(known.count(n) == 1);
        }
    }
}

TEST_CASE("docs: every long option of a --help is described in pak(1) past its SYNOPSIS",
          "[cli][docs]") {
    const std::string page = readText(test::sourceDir() / "doc/pak.1");
    std::string body;
    for (const char* section : {"DESCRIPTION", "OPTIONS", "VERSIONS 6 TO 18", "SUBCOMMANDS"})
        for (const auto& line : manSection(page, section)) body += unescape(line) + "\n";
    REQUIRE(!body.empty());
    for (const char* command :
         {"info", "ls", "cat", "extract", "pack", "commit", "check", "diff", "add", "rm", "mv",
          "packlist ls", "packlist add", "gbx info", "gbx refs", "gbx thumbnail"}) {
        auto r = run(kPak + " " + std::string(command) + " --help");
        REQUIRE(r.code == 0);
        for (const auto& names : optionsOf(r.out))
            for (const auto& n : names) {
                if (n.rfind("--", 0) != 0) continue;
                INFO("pak " << command << " " << n);
                // As an item of its own (".B --opt", ".BI --opt ...") or named in the text.
                CHECK(body.find(n) != std::string::npos);
            }
    }
}

TEST_CASE("docs: the exit codes of pak(1)'s EXIT STATUS are the ones the tool gives",
          "[cli][docs]") {
    const std::string page = readText(test::sourceDir() / "doc/pak.1");
    std::set<int> documented;
    const std::vector<std::string> section = manSection(page, "EXIT STATUS");
    for (std::size_t i = 0; i + 1 < section.size(); ++i)
        if (section[i] == ".TP" && section[i + 1].rfind(".B ", 0) == 0)
            documented.insert(std::stoi(section[i + 1].substr(3)));
    CHECK(documented == std::set<int>{0, 1, 2});

    test::TempDir dir;
    const std::string list = "'" + (dir / "packlist.dat").string() + "'";
    std::map<int, std::vector<test::RunResult>> seen;
    // 0: success.
    seen[0].push_back(run(kPak + " packlist add " + list +
                          " Sample --key-string 00112233445566778899AABBCCDDEEFF"));
    seen[0].push_back(run(kPak + " packlist ls " + list));
    // 1: bad input, the file and the problem named.
    auto missing = run(kPak + " ls /nonexistent/x.pak");
    CHECK(missing.err == "pak: /nonexistent/x.pak: no such file\n");
    seen[1].push_back(missing);
    auto folder = run(kPak + " gbx info '" + dir.path().string() + "'");
    CHECK(folder.err == "pak: " + dir.path().string() + ": is a folder, not a file\n");
    seen[1].push_back(folder);
    auto nothere = run(kPak + " gbx info /nonexistent/nothere.gbx");
    CHECK(nothere.err == "pak: /nonexistent/nothere.gbx: no such file\n");
    seen[1].push_back(nothere);
    // The file is checked before any key is looked for (there is no packlist beside these).
    auto notPak = run(kPak + " ls " + list);
    CHECK(notPak.err ==
          "pak: " + (dir / "packlist.dat").string() + ": not a pak file (no \"NadeoPak\" magic)\n");
    seen[1].push_back(notPak);
    auto folderPak = run(kPak + " ls '" + dir.path().string() + "'");
    CHECK(folderPak.err == "pak: " + dir.path().string() + ": is a folder, not a file\n");
    seen[1].push_back(folderPak);
    auto listed = run(kPak + " packlist add " + list + " sample");
    CHECK(listed.err.rfind("pak: " + (dir / "packlist.dat").string() +
                               ": already has pack \"Sample\" (key string "
                               "00112233445566778899AABBCCDDEEFF); nothing changed.",
                           0) == 0);
    seen[1].push_back(listed);
    // 2: bad usage, one "pak:" line.
    auto option = run(kPak + " ls --bogus x.pak");
    CHECK(option.err.rfind("pak: ", 0) == 0);
    CHECK(option.err.find("--bogus") != std::string::npos);
    CHECK(option.err.find("(pak ls --help)\n") != std::string::npos);
    seen[2].push_back(option);
    auto command = run(kPak + " lst");
    CHECK(command.err.rfind("pak: unknown command \"lst\" (commands: info, ls, ", 0) == 0);
    seen[2].push_back(command);
    seen[2].push_back(run(kPak));
    // pak diff keeps diff(1)'s codes: trouble, a missing pak among them, is 2 (1: they differ).
    auto trouble = run(kPak + " diff /nonexistent/a.pak /nonexistent/b.pak");
    CHECK(trouble.err == "pak: /nonexistent/a.pak: no such file\n");
    seen[2].push_back(trouble);
    std::string exitText;
    for (const auto& line : section) exitText += unescape(line) + "\n";
    CHECK(exitText.find("pak diff") != std::string::npos);

    for (int code : documented) {
        INFO("exit status " << code);
        REQUIRE(seen.count(code) == 1);
        for (const auto& r : seen[code]) {
            INFO(r.err);
            CHECK(r.code == code);
        }
    }
}

TEST_CASE(
    "docs: pak info of a 6+ pack shows the private header with the key, the public one "
    "and why without it",
    "[cli][docs]") {
    test::TempDir dir;
    test::writeFile(dir / "src/M/a.txt", Bytes{'h', 'i', '\n'});
    const std::string key = "00112233445566778899aabbccddeeff";
    const std::string pack = "'" + (dir / "V6.Pack.Gbx").string() + "'";
    REQUIRE(run(kPak + " pack -q --version 6 --header-key private --key " + key + " '" +
                (dir / "src").string() + "' " + pack)
                .code == 0);
    auto r = run(kPak + " info --json " + pack + " --key " + key);
    REQUIRE(r.code == 0);
    auto withKey = nlohmann::json::parse(r.out);
    CHECK(withKey["format"] == "ManiaPlanet .Pack.Gbx");  // the public header
    CHECK(withKey["key"] == "given");
    CHECK(withKey["files"] == 1);  // the private header's fields
    CHECK(withKey["folders"] == 1);
    CHECK(withKey.contains("header_md5"));
    CHECK(!withKey.contains("entries"));
    r = run(kPak + " info --json " + pack);
    CHECK(r.code == 1);
    auto without = nlohmann::json::parse(r.out);
    CHECK(without["format"] == "ManiaPlanet .Pack.Gbx");
    CHECK(without["contents_checksum"] == withKey["contents_checksum"]);
    CHECK(!without.contains("files"));
    CHECK(without["entries"] == (dir / "V6.Pack.Gbx").string() +
                                    ": the header is private: give the pack key (--key, "
                                    "--base-key or --ms-key) to list it");
}

TEST_CASE("docs: pak(1)'s Key options name every subcommand that takes --key", "[cli][docs]") {
    const std::string page = readText(test::sourceDir() / "doc/pak.1");
    const std::size_t at = page.find(".SS Key options");
    REQUIRE(at != std::string::npos);
    const std::string paragraph =
        unescape(page.substr(at, page.find("take these options", at) - at));
    std::set<std::string> listed;
    for (std::string w : words(paragraph)) {
        while (!w.empty() && std::string("\"(),").find(w.back()) != std::string::npos) w.pop_back();
        while (!w.empty() && std::string("\"(").find(w.front()) != std::string::npos) w.erase(0, 1);
        listed.insert(w);
    }
    auto r = run(kPak + " --help");
    REQUIRE(r.code == 0);
    for (const auto& command : subcommandsOf(r.out)) {
        for (const std::string& sub : {std::string(), std::string(" info"), std::string(" refs"),
                                       std::string(" thumbnail")}) {
            if (!sub.empty() && command != "gbx") continue;
            if (sub.empty() && command == "gbx") continue;
            auto help = run(kPak + " " + command + sub + " --help");
            if (help.code != 0 || help.out.find("--key ") == std::string::npos) continue;
            INFO("pak " << command << sub << " takes --key");
            // "gbx info" is listed as its last word after "gbx".
            CHECK(listed.count(sub.empty() ? command : sub.substr(1)) == 1);
        }
    }
}

TEST_CASE("docs: scripts/demo.sh builds the programs only, not the test suite", "[cli][docs]") {
    const std::string demo = readText(test::sourceDir() / "scripts/demo.sh");
    CHECK(demo.find("\nBUILD_TARGETS=\"pak pakfs\" scripts/build.sh\n") != std::string::npos);
    CHECK(demo.find("\nscripts/build.sh") == std::string::npos);
}
