// JSON for every lab report, written in one place: the CLI's --json output,
// the page's calls into WebAssembly and the tests all read these.
// Field names are the literature's symbols in snake_case (m, n, k, fpr_*).
#pragma once

#include <string>

#include "lab.hpp"

namespace bloomlab::lab {

// indent < 0 gives one line; otherwise pretty-printed with that indent.
std::string to_json(const size_report& r, int indent = 2);
std::string to_json(const analyze_report& r, int indent = 2);
std::string to_json(const measure_report& r, int indent = 2);
std::string to_json(const trials_report& r, int indent = 2);
std::string to_json(const tune_report& r, int indent = 2);
std::string to_json(const stage_report& r, int indent = 2);
std::string to_json(const curves_report& r, int indent = 2);
std::string to_json(const walk_report& r, int indent = 2);
std::string to_json(const removal_report& r, int indent = 2);
std::string to_json(const combine_report& r, int indent = 2);
std::string to_json(const bip37_report& r, int indent = 2);
std::string to_json(const cuckoo_stage_report& r, int indent = 2);
std::string to_json(const growing_report& r, int indent = 2);
std::string to_json(const gate_sim_report& r, int indent = 2);
std::string to_json(const gate_unban_report& r, int indent = 2);
std::string to_json(const attack_report& r, int indent = 2);
std::string to_json(const std::vector<hash_entry>& r, int indent = 2);       // [{text, hash}]
std::string to_json(const std::vector<positions_entry>& r, int indent = 2);  // [{text, positions}]

}  // namespace bloomlab::lab
