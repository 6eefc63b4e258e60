// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <CLI/CLI.hpp>

#include "archive/PackList.hpp"

namespace pakfs::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

// Each group registers its subcommands on the app. A subcommand's callback does its work and
// stores its exit code in `exitCode`; errors with input are thrown as pakfs::Error and printed
// by main as "pak: <message>" with exit code 1.
void addArchiveCommands(CLI::App& app, int& exitCode);   // info ls cat extract pack check
void addPacklistCommands(CLI::App& app, int& exitCode);  // packlist ls/add
void addGbxCommands(CLI::App& app, int& exitCode);       // gbx info
void addRefsCommands(CLI::App& app, int& exitCode);      // gbx refs (after addGbxCommands)

// pak check --refs PACKSDIR: every gbx file's references resolved; returns the exit code.
int checkReferences(const std::string& packsDir, const archive::KeyOptions& keys);

}  // namespace pakfs::cli
