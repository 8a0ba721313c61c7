// bloomlab rocksdb: the Bloom filter in RocksDB table files (rocksdb_sst.hpp
// reads the table), registered as parquet is.
#pragma once

#include <memory>

#include "cmd_family.hpp"

namespace bloomlab::cli {

std::unique_ptr<family_commands> register_rocksdb_command(CLI::App& app);

}  // namespace bloomlab::cli
