// The five words section 1's tests draw and remove (its removal and search
// reports).
#pragma once

#include <string>
#include <vector>

namespace bloomlab::test {

inline const std::vector<std::string> fruit = {"apple", "banana", "cherry", "grape", "mango"};

}  // namespace bloomlab::test
