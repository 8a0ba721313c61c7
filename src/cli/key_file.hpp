// The secret key of a keyed filter, read from a file: never from the command
// line (where ps and the shell's history show it) and never written out.
//
// Where: --key-file FILE, or else the file named by the environment variable
// BLOOMLAB_KEY_FILE (the flag wins when both are given; an empty variable
// counts as unset). What a key file holds, and nothing else:
//   - exactly 16 bytes, the key as it is (head -c 16 /dev/urandom > FILE), or
//   - 32 hexadecimal digits (either case), optionally followed by one newline
//     ("\n" or "\r\n"), the 16 bytes in order.
// Anything else is refused (usage_error, exit 2) with a message that names
// the flag or variable, the file and what was wrong, never the file's bytes.
// A key of 16 zero bytes is refused too: it is what an empty or unwritten
// file would give, and it is no secret; and so are 16 bytes that are all hex
// digits (a hex key cut short, not 16 random bytes).
#pragma once

#include <optional>
#include <string>

#include "bloomlab/siphash.hpp"

namespace bloomlab::cli {

inline constexpr const char* key_file_env = "BLOOMLAB_KEY_FILE";

// The key in `path`; `source` names where the path came from in messages
// ("--key-file" or "BLOOMLAB_KEY_FILE").
sip_key read_key_file(const std::string& path, const std::string& source);

// The key the user supplied: from --key-file (flag_value non-empty), else
// from BLOOMLAB_KEY_FILE, else none. `flag_given` is whether the flag was on
// the command line at all (so that --key-file "" is refused, not ignored).
std::optional<sip_key> supplied_key(const std::string& flag_value, bool flag_given);

// Where the key of supplied_key() came from, for messages: "--key-file",
// "BLOOMLAB_KEY_FILE" or "" (no key).
std::string key_source(const std::string& flag_value, bool flag_given);

}  // namespace bloomlab::cli
