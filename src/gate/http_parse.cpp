#include "http_parse.hpp"

#include <nlohmann/json.hpp>

#include "gate.hpp"

namespace bloomlab::gate {

namespace {

constexpr const char* not_an_array = "the body is not a JSON array of keys; send [\"k1\", \"k2\"] or one key a line";

// Reads a JSON array of strings without building a tree: each string is
// moved into `keys` as it is parsed; anything else stops the parse.
struct batch_reader final : nlohmann::json_sax<nlohmann::json> {
  std::vector<std::string>& keys;
  std::size_t max_keys;
  std::string why;
  int depth = 0;
  std::size_t item = 0;

  batch_reader(std::vector<std::string>& k, std::size_t max) : keys(k), max_keys(max) {}

  bool refuse_item() {
    why = depth == 0 ? not_an_array : "item " + std::to_string(item) + " of the array is not a string";
    return false;
  }
  bool null() override { return refuse_item(); }
  bool boolean(bool) override { return refuse_item(); }
  bool number_integer(number_integer_t) override { return refuse_item(); }
  bool number_unsigned(number_unsigned_t) override { return refuse_item(); }
  bool number_float(number_float_t, const string_t&) override { return refuse_item(); }
  bool binary(binary_t&) override { return refuse_item(); }
  bool start_object(std::size_t) override { return refuse_item(); }
  bool key(string_t&) override { return refuse_item(); }
  bool end_object() override { return refuse_item(); }
  bool start_array(std::size_t) override {
    if (depth > 0) return refuse_item();
    ++depth;
    return true;
  }
  bool end_array() override {
    --depth;
    return true;
  }
  bool string(string_t& s) override {
    if (depth == 0) return refuse_item();
    if (keys.size() == max_keys) {
      why = "the body holds more than " + std::to_string(max_keys) + " keys; allowed: 1 to " +
            std::to_string(max_keys) + " keys a request";
      return false;
    }
    keys.push_back(std::move(s));
    ++item;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    if (why.empty()) why = not_an_array;
    return false;
  }
};

}  // namespace

query_value query_param(std::string_view target, std::string_view name) {
  query_value out;
  const auto q = target.find('?');
  if (q == std::string_view::npos) return out;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    const auto decoded_name = percent_decode(pair.substr(0, eq), true);
    if (!decoded_name || *decoded_name != name) continue;
    out.found = true;
    const auto value = percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
    if (!value)
      out.error = "a '%' not followed by two hex digits; percent-encode the key (curl --data-urlencode key=...)";
    else
      out.value = *value;
    return out;  // the first occurrence counts
  }
  return out;
}

bool parse_batch(std::string_view body, bool as_json, std::size_t max_keys, std::vector<std::string>& keys,
                 std::string& why) {
  const auto first = body.find_first_not_of(" \t\r\n");
  if (as_json || (first != std::string_view::npos && body[first] == '[')) {
    batch_reader reader(keys, max_keys);
    const bool ok = nlohmann::json::sax_parse(body.begin(), body.end(), &reader);
    if (!ok) {
      why = reader.why.empty() ? not_an_array : reader.why;
      return false;
    }
  } else {
    std::size_t at = 0;
    while (at < body.size()) {
      if (keys.size() == max_keys) {
        why = "the body holds more than " + std::to_string(max_keys) + " keys; allowed: 1 to " +
              std::to_string(max_keys) + " keys a request";
        return false;
      }
      std::size_t end = body.find('\n', at);
      if (end == std::string_view::npos) end = body.size();
      std::string_view line = body.substr(at, end - at);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      keys.emplace_back(line);
      at = end + 1;
    }
  }
  if (keys.empty()) {
    why = "the body holds no keys; send one key a line, or a JSON array";
    return false;
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (const std::string p = key_problem(keys[i]); !p.empty()) {
      why = "key " + std::to_string(i + 1) + ": " + p;
      return false;
    }
  return true;
}

}  // namespace bloomlab::gate
