// The filter family's lab commands: removal, combine and bip37. Their flags
// are declared in cmd_family.cpp, so main.cpp only registers them and hands
// over the chosen subcommand.
#pragma once

#include <memory>
#include <optional>

namespace CLI {
class App;
}

namespace bloomlab::cli {

class family_commands {
 public:
  virtual ~family_commands() = default;
  // The exit code when `sub` is one of these commands, nothing otherwise.
  // Bad input throws usage_error.
  virtual std::optional<int> run(const CLI::App* sub) const = 0;
};

std::unique_ptr<family_commands> register_family_commands(CLI::App& app);

// bloomlab attack (cmd_attack.cpp), through the same interface.
std::unique_ptr<family_commands> register_attack_command(CLI::App& app);

}  // namespace bloomlab::cli
