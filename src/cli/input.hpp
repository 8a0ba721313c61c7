// Reading a list: one item a line, from a file or standard input ("-").
#pragma once

#include <string>
#include <vector>

namespace bloomlab::cli {

// The items of a list: each line with its line ending and surrounding
// spaces and tabs removed; blank lines are skipped. Refuses (usage_error) a
// missing or unreadable file, a directory, binary data (a NUL byte) and
// text that is not UTF-8, naming the line.
std::vector<std::string> read_list(const std::string& path);

}  // namespace bloomlab::cli
