// bloomlab parquet: the split-block Bloom filters in Parquet files
// (parquet_footer.hpp reads the footer), registered as pgbloom is.
#pragma once

#include <memory>

#include "cmd_family.hpp"

namespace bloomlab::cli {

std::unique_ptr<family_commands> register_parquet_command(CLI::App& app);

}  // namespace bloomlab::cli
