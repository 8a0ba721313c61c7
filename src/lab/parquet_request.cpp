// The page's parquet request (requests.hpp): the lab's Parquet report on
// the bytes the page read with the File API, under the request machinery's
// refusals.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "parquet_report.hpp"
#include "parse.hpp"
#include "request_fields.hpp"
#include "requests.hpp"

namespace bloomlab::lab {

std::string run_parquet_request(std::uint64_t size, std::span<const std::uint8_t> head,
                                std::span<const std::uint8_t> tail, std::string_view request_json) {
  return request::run_guarded("parquet", [&] {
    const request::json j = request::parse_request(request_json);
    const request::fields f(j, "parquet", {"name", "column", "probe"});
    const std::string name = f.text("name", "allowed: the file's name").value_or("file.parquet");
    const std::optional<std::string> column = f.text("column", "allowed: a column's dotted path");
    const std::optional<std::string> probe = f.text("probe", "allowed: a value of the column's type");
    if (probe.has_value() != column.has_value())
      throw input_error(column ? "probe" : "column", "",
                        column ? "probe: is required with column; allowed: a value of the column's type"
                               : "column: is required with probe; allowed: a column's dotted path");
    if (tail.size() > max_page_parquet_tail)
      throw input_error("file", "", name + ": " + thousands(tail.size()) + " bytes of its end given; allowed: at most " +
                                        thousands(max_page_parquet_tail));
    try {
      const parquet::window_source src(size, head, tail);
      parquet::probe_request pr{column.value_or(""), {probe.value_or("")}, "column", "probe"};
      return parquet::to_json(parquet::read_parquet(src, name, column ? &pr : nullptr));
    } catch (const parquet::parquet_error& e) {
      throw input_error("file", "", name + ": " + e.what());
    }
  });
}

}  // namespace bloomlab::lab
