// bloomlab pgbloom: PostgreSQL's bloom index predicted (src/lab/pg_bloom.hpp),
// registered through the same interface as the family commands so that
// main.cpp only registers it and hands over the chosen subcommand.
#pragma once

#include <memory>

#include "cmd_family.hpp"

namespace bloomlab::cli {

std::unique_ptr<family_commands> register_pgbloom_command(CLI::App& app);

}  // namespace bloomlab::cli
