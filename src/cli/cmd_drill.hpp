// bloomlab drill: three hash-set problems run with an exact set and with a
// Bloom filter in its place (src/lab/set_drill.hpp), registered like
// cmd_which.
#pragma once

#include <memory>

#include "cmd_family.hpp"

namespace bloomlab::cli {

std::unique_ptr<family_commands> register_drill_command(CLI::App& app);

}  // namespace bloomlab::cli
