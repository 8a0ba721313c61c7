// set_drill: the lab operation behind `bloomlab drill` and its JSON.
#include "set_drill.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "bloomlab/bloom_filter.hpp"
#include "bloomlab/index.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/random.hpp"
#include "bloomlab/stats.hpp"
#include "parse.hpp"

namespace bloomlab::lab {

namespace {

std::string num(std::int64_t v) {
  // Written with a true minus sign, as the page's text does.
  return v < 0 ? "\u2212" + std::to_string(-v) : std::to_string(v);
}

// The exact set.
struct exact_set {
  std::unordered_set<std::int64_t> s;
  bool last_false = false;  // never: the exact set is never wrong
  bool has(std::int64_t x) { return s.contains(x); }
  void add(std::int64_t x) { s.insert(x); }
};

// A Bloom filter in the set's place; beside it, what was really added, to
// tell a false "maybe" (last_false) from a true one.
struct filter_set {
  bloom_filter f;
  std::unordered_set<std::int64_t> added;
  std::uint64_t lookups = 0, false_maybes = 0;
  bool last_false = false;
  bool has(std::int64_t x) {
    ++lookups;
    const bool maybe = f.contains(static_cast<std::uint64_t>(x));
    last_false = maybe && !added.contains(x);
    false_maybes += last_false;
    return maybe;
  }
  void add(std::int64_t x) {
    f.add(static_cast<std::uint64_t>(x));
    added.insert(x);
  }
};

template <class Set>
drill_answer contains_duplicate(const std::vector<std::int64_t>& xs, Set& s, std::string& why) {
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::int64_t x = xs[i];
    if (s.has(x)) {
      if (s.last_false)
        why = num(x) + " at position " + std::to_string(i + 1) +
              " read maybe before it was ever added (its bits were all set by other numbers), and the maybe was "
              "taken as yes: a repeat that is not there.";
      return {true, i, x, 0, "yes: " + num(x) + " at position " + std::to_string(i + 1) + " was seen before"};
    }
    s.add(x);
  }
  return {false, 0, 0, 0, "no: every number is different"};
}

template <class Set>
drill_answer two_sum(const std::vector<std::int64_t>& xs, std::int64_t target, Set& s, std::string& why) {
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::int64_t x = xs[i], c = target - x;
    if (s.has(c)) {
      if (s.last_false)
        why = num(c) + " (" + num(target) + " minus " + num(x) + ", at position " + std::to_string(i + 1) +
              ") read maybe though it was never added, and the maybe was taken as yes: a pair that is not there.";
      return {true, i, c, x, num(c) + " + " + num(x) + " = " + num(target) + ": " + num(x) + " at position " +
                                 std::to_string(i + 1) + ", " + num(c) + " before it"};
    }
    s.add(x);
  }
  return {false, 0, 0, 0, "no: no two numbers add up to " + num(target)};
}

// The walk from each start is cut after n + 1 steps: a run longer than the
// distinct numbers is wrong anyway, and a filter full of 1s would never stop.
// `why` explains a length other than exact's: longer, the false maybe that
// stretched the winning run; shorter (a filter never misses a number, so
// only this way), the one that made exact's start look like a run's middle.
template <class Set>
drill_answer longest_consecutive(const std::vector<std::int64_t>& xs, Set& s, std::string& why,
                                 const drill_answer& exact) {
  for (std::int64_t x : xs) s.add(x);
  std::unordered_set<std::int64_t> seen;
  const std::int64_t cap = static_cast<std::int64_t>(xs.size()) + 1;
  drill_answer best{true, 0, 0, 0, ""};
  std::string skipped, stretched;  // in words, as above
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::int64_t x = xs[i];
    if (!seen.insert(x).second) continue;
    if (s.has(x - 1)) {
      if (s.last_false && x == exact.a)
        skipped = num(x - 1) + " read maybe though it is not in the list, so " + num(x) +
                  " was taken for the middle of a run and the run from it was never counted.";
      continue;
    }
    std::int64_t len = 1;
    std::string walk;  // this walk's first false maybe
    while (len <= cap && s.has(x + len)) {
      if (s.last_false && walk.empty())
        walk = num(x + len) + " read maybe though it is not in the list, so the run from " + num(x) +
               " was stretched past its end.";
      ++len;
    }
    if (len > best.b) {
      best = {true, i, x, len, ""};
      stretched = walk;
    }
  }
  best.words = best.b == 0       ? "none: every number's neighbour below read present, so no run was counted"
               : best.b > cap - 1 ? "more than " + std::to_string(cap - 1) + " (the walk was cut there)"
                                  : std::to_string(best.b) + ", from " + num(best.a) + " to " + num(best.a + best.b - 1);
  why = best.b > exact.b ? stretched : best.b < exact.b ? skipped : "";
  return best;
}

// Longest Consecutive Sequence asks for a length: a run of the same length
// from another start is the same answer.
bool same(const std::string& name, const drill_answer& a, const drill_answer& b) {
  return name == "longest_consecutive" ? a.b == b.b : a == b;
}

void check(const set_drill_request& r) {
  const auto out = [](const std::string& what) { throw std::invalid_argument("drill: " + what); };
  if (r.numbers.empty() || r.numbers.size() > drill_max_numbers)
    out(std::to_string(r.numbers.size()) + " numbers; allowed: 1 to " + thousands(drill_max_numbers));
  for (std::int64_t x : r.numbers)
    if (x > drill_max_value || x < -drill_max_value) out("number " + std::to_string(x) + " is out of range");
  if (r.target > drill_max_value || r.target < -drill_max_value) out("target is out of range");
  if (r.m < 1 || r.m > drill_max_m) out("m = " + std::to_string(r.m) + "; allowed: 1 to " + thousands(drill_max_m));
  if (r.k < 1 || r.k > drill_max_k) out("k = " + std::to_string(r.k) + "; allowed: 1 to " + std::to_string(drill_max_k));
  if (r.trials < 1 || r.trials > drill_max_trials)
    out("trials = " + std::to_string(r.trials) + "; allowed: 1 to " + thousands(drill_max_trials));
  if (r.trials * r.numbers.size() * r.k > drill_max_work)
    out("trials x numbers x k = " + thousands(r.trials * r.numbers.size() * r.k) + "; allowed: up to " +
        thousands(drill_max_work));
}

}  // namespace

set_drill_report set_drill(const set_drill_request& r) {
  check(r);
  set_drill_report rep{};
  rep.request = r;
  rep.distinct = std::unordered_set<std::int64_t>(r.numbers.begin(), r.numbers.end()).size();
  rep.expected_fpr = fpr_approx(static_cast<double>(r.m), static_cast<double>(rep.distinct), r.k);

  const char* names[] = {"contains_duplicate", "two_sum", "longest_consecutive"};
  const auto solve = [&](int which, auto& s, std::string& why, const drill_answer& exact) {
    if (which == 0) return contains_duplicate(r.numbers, s, why);
    if (which == 1) return two_sum(r.numbers, r.target, s, why);
    return longest_consecutive(r.numbers, s, why, exact);
  };
  for (int p = 0; p < 3; ++p) {
    drill_problem d{};
    d.name = names[p];
    std::string unused;
    exact_set e;
    d.exact = solve(p, e, unused, drill_answer{});
    d.first_wrong_trial = r.trials;
    std::uint64_t state = r.seed;  // the trials' keys: the same for each problem
    for (std::uint64_t t = 0; t < r.trials; ++t) {
      const sip_key key{splitmix64(state), splitmix64(state)};
      filter_set s{bloom_filter(r.m, r.k, indexer::siphash(key)), {}};
      std::string why;
      const drill_answer a = solve(p, s, why, d.exact);
      if (t == 0) {
        d.filter = a;
        d.lookups = s.lookups;
        d.false_maybes = s.false_maybes;
        d.filter_wrong = !same(d.name, a, d.exact);
      }
      if (!same(d.name, a, d.exact)) {
        ++d.wrong;
        if (d.first_wrong_trial == r.trials) {
          d.first_wrong_trial = t;
          d.why = why;
        }
      }
    }
    const interval iv = wilson_interval(d.wrong, r.trials);
    d.wrong_rate = iv.mean;
    d.low = iv.low;
    d.high = iv.high;
    rep.problems.push_back(std::move(d));
  }
  return rep;
}

namespace {

nlohmann::json answer_json(const drill_answer& a) {
  return {{"found", a.found}, {"at", a.at}, {"a", a.a}, {"b", a.b}, {"words", a.words}};
}

}  // namespace

std::string to_json(const set_drill_report& r, int indent) {
  nlohmann::json j;
  j["numbers"] = r.request.numbers;
  j["target"] = r.request.target;
  j["m"] = r.request.m;
  j["k"] = r.request.k;
  j["trials"] = r.request.trials;
  j["seed"] = r.request.seed;
  j["distinct"] = r.distinct;
  j["fpr_expected"] = r.expected_fpr;
  nlohmann::json ps = nlohmann::json::array();
  for (const drill_problem& d : r.problems)
    ps.push_back({{"name", d.name},
                  {"exact", answer_json(d.exact)},
                  {"filter", answer_json(d.filter)},
                  {"filter_wrong", d.filter_wrong},
                  {"lookups", d.lookups},
                  {"false_maybes", d.false_maybes},
                  {"wrong", d.wrong},
                  {"wrong_rate", d.wrong_rate},
                  {"wrong_low", d.low},
                  {"wrong_high", d.high},
                  {"first_wrong_trial", d.first_wrong_trial < r.request.trials ? nlohmann::json(d.first_wrong_trial)
                                                                                 : nlohmann::json(nullptr)},
                  {"why", d.why}});
  j["problems"] = ps;
  return j.dump(indent);
}

std::int64_t parse_number(const std::string& field, std::string_view text) {
  std::string t = trim_item(text);
  std::size_t at = 0;
  const bool negative = !t.empty() && (t[0] == '-' || t[0] == '+') ? (at = 1, t[0] == '-') : false;
  if (at == t.size() || t.size() - at > 16 || t.find_first_not_of("0123456789", at) != std::string::npos)
    refuse(field, t, "is not a whole number; allowed: whole numbers from -" + thousands(drill_max_value) + " to " +
                         thousands(drill_max_value) + ", plain digits with an optional sign");
  const std::int64_t v = std::strtoll(t.c_str() + at, nullptr, 10);
  if (v > drill_max_value)
    refuse(field, t, "is out of range; allowed: whole numbers from -" + thousands(drill_max_value) + " to " +
                         thousands(drill_max_value));
  return negative ? -v : v;
}

std::vector<std::int64_t> parse_numbers(const std::string& field, std::string_view text) {
  std::vector<std::int64_t> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find_first_of(" \t\r\n,;", at), text.size());
    if (end > at) {
      if (out.size() == drill_max_numbers)
        throw input_error(field, "", field + ": more than " + thousands(drill_max_numbers) +
                                         " numbers; allowed: 1 to " + thousands(drill_max_numbers));
      out.push_back(parse_number(field, text.substr(at, end - at)));
    }
    at = end + 1;
  }
  if (out.empty()) throw input_error(field, "", field + ": no numbers; allowed: 1 to " + thousands(drill_max_numbers) +
                                                    " whole numbers, separated by spaces, commas or new lines");
  return out;
}

}  // namespace bloomlab::lab
