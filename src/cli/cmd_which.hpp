// bloomlab which: every filter kind on one set at one target rate
// (src/lab/which.hpp), registered through the family commands' interface so
// that main.cpp only registers it and hands over the chosen subcommand.
#pragma once

#include <memory>

#include "cmd_family.hpp"

namespace bloomlab::cli {

std::unique_ptr<family_commands> register_which_command(CLI::App& app);

}  // namespace bloomlab::cli
