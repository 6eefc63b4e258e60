// SPDX-License-Identifier: GPL-2.0-or-later
// pak: list, extract, check and build TrackMania .pak archives, and inspect .gbx files.
#include <cstdio>
#include <exception>

#include "archive/Version.hpp"
#include "common/Error.hpp"
#include "tools/pak/Commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "pak: list, extract, check and build TrackMania .pak archives (version 3) and "
        "ManiaPlanet / Trackmania 2020 .Pack.Gbx packs (versions 6 to 18), and inspect .gbx "
        "files.\n"
        "Keys: --key HEX32, --key-file FILE or --packlist FILE; for versions 6+ also "
        "--base-key HEX32 or --ms-key HEX32. Without them the key is taken from a packlist.dat "
        "beside the pak (versions 6+ may need none to list)."};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Show help for every subcommand");
    app.set_version_flag("-V,--version", std::string("pak ") + pakfs::archive::projectVersion() +
                                             " (" + pakfs::archive::libraryVersions() + ")");
    int exitCode = pakfs::cli::kExitOk;
    pakfs::cli::addArchiveCommands(app, exitCode);
    pakfs::cli::addPacklistCommands(app, exitCode);
    pakfs::cli::addGbxCommands(app, exitCode);
    pakfs::cli::addRefsCommands(app, exitCode);
    pakfs::cli::addCommitCommands(app, exitCode);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int rc = app.exit(e);
        return rc == 0 ? 0 : pakfs::cli::kExitUsage;
    } catch (const pakfs::Error& e) {
        std::fprintf(stderr, "pak: %s\n", e.what());
        return pakfs::cli::kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pak: %s\n", e.what());
        return pakfs::cli::kExitBadInput;
    }
    return exitCode;
}
