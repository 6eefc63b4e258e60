// SPDX-License-Identifier: GPL-2.0-or-later
// pak: list, extract, check and build TrackMania .pak archives, and inspect .gbx files.
#include <cstdio>
#include <exception>
#include <string>

#include "archive/pak/Version.hpp"
#include "common/Error.hpp"
#include "common/Interrupt.hpp"
#include "tools/pak/Commands.hpp"

namespace {

// "pak" and the subcommands the command line named, as far as they were parsed ("pak packlist
// add"), for the pointer to --help after a usage error.
std::string commandPath(const CLI::App& app) {
    std::string path = "pak";
    const CLI::App* at = &app;
    while (true) {
        const auto used = at->get_subcommands();
        if (used.empty()) return path;
        at = used.front();
        path += " " + at->get_name();
    }
}

}  // namespace

int main(int argc, char** argv) {
    // What pak reads, then the ways to give a key.
    CLI::App app{std::string("pak: list, extract, check and build TrackMania .pak archives "
                             "(version 3) and ManiaPlanet / Trackmania 2020 .Pack.Gbx packs "
                             "(versions 6 to 18), and inspect .gbx files.\n") +
                 "Keys: --key HEX32, --key-file FILE or --packlist FILE; for versions 6+ also "
                 "--base-key HEX32 or --ms-key HEX32. Without them the key is taken from a "
                 "packlist.dat beside the pak (versions 6+ may need none to list)."};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Show help for every subcommand");
    app.set_version_flag("-V,--version", std::string("pak ") + pakfs::archive::projectVersion() +
                                             " (" + pakfs::archive::libraryVersions() + ")");
    int exitCode = pakfs::cli::kExitOk;
    pakfs::cli::addInspectCommands(app, exitCode);
    pakfs::cli::addExtractCommands(app, exitCode);
    pakfs::cli::addPackCommands(app, exitCode);
    pakfs::cli::addCheckCommands(app, exitCode);
    pakfs::cli::addPacklistCommands(app, exitCode);
    pakfs::cli::addGbxCommands(app, exitCode);
    pakfs::cli::addRefsCommands(app, exitCode);
    pakfs::cli::addCommitCommands(app, exitCode);
    pakfs::cli::addDiffCommands(app, exitCode);
    pakfs::cli::addEditCommands(app, exitCode);
    // After the commands: a subcommand takes its parent's footer as it is when it is added.
    app.footer("pak COMMAND --help: a command's options and details; pak(1): everything.");
    pakfs::installInterruptCleanup("pak");
    // A first word that names no command: say so (CLI11 would only say one is required).
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        std::string names;
        for (const auto* sub : app.get_subcommands({})) {
            known = known || sub->check_name(argv[1]);
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known) {
            std::fprintf(stderr, "pak: unknown command \"%s\" (commands: %s; pak --help)\n",
                         argv[1], names.c_str());
            return pakfs::cli::kExitUsage;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0 as CLI11 prints them; usage errors are "pak: ..." lines.
        if (e.get_exit_code() == 0) return app.exit(e);
        std::fprintf(stderr, "pak: %s (pak%s --help)\n", e.what(),
                     argc > 1 && argv[1][0] != '-' ? (std::string(" ") + argv[1]).c_str() : "");
        return pakfs::cli::kExitUsage;
    } catch (const pakfs::UsageError& e) {
        // An option's value or combination a command found wrong: a usage error too.
        std::fprintf(stderr, "pak: %s (%s --help)\n", e.what(), commandPath(app).c_str());
        return pakfs::cli::kExitUsage;
    } catch (const pakfs::Error& e) {
        std::fprintf(stderr, "pak: %s\n", e.what());
        return pakfs::cli::kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pak: %s\n", e.what());
        return pakfs::cli::kExitBadInput;
    }
    return exitCode;
}
