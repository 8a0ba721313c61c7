// The filter-file commands: build, query, add, remove, info, merge and
// intersect. Their flags are declared in cmd_filters.cpp, so main.cpp only
// registers them and hands over the chosen subcommand.
#pragma once

#include <memory>
#include <optional>

namespace CLI {
class App;
}

namespace bloomlab::cli {

class filter_commands {
 public:
  virtual ~filter_commands() = default;
  // The exit code when `sub` is one of these commands, nothing otherwise.
  // Bad input and unreadable or unwritable filter files throw usage_error.
  virtual std::optional<int> run(const CLI::App* sub) const = 0;
};

std::unique_ptr<filter_commands> register_filter_commands(CLI::App& app);

}  // namespace bloomlab::cli
