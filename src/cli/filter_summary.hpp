// What a filter file holds, as build, info, add and merge report it: one
// JSON summary (kind, parameters, items, fill, estimated count, expected and
// current rate), printed readable or as JSON.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bloomlab/io/filter_file.hpp"

namespace bloomlab::cli {

// std::visit over lambdas, one per alternative.
template <class... F>
struct overload : F... {
  using F::operator()...;
};
template <class... F>
overload(F...) -> overload<F...>;

nlohmann::json summary(const io::filter_file& file);

// Prints j: as one JSON document, or readable under the headline.
void report(const nlohmann::json& j, bool as_json, const std::string& headline);

}  // namespace bloomlab::cli
