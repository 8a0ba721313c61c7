// pg_bloom: the lab operation behind `bloomlab pgbloom` and its JSON.
#include "pg_bloom.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "bloomlab/math.hpp"

namespace bloomlab::lab {

pg_bloom_report pg_bloom(const pg_bloom_request& r) {
  const auto out_of_range = [](const char* field, std::uint64_t v, std::uint64_t hi) {
    throw std::invalid_argument(std::string("pg_bloom: ") + field + " " + std::to_string(v) + " out of range 1.." +
                                std::to_string(hi));
  };
  if (r.length < 1 || r.length > pg_bloom_max_length) out_of_range("length", r.length, pg_bloom_max_length);
  if (r.col_bits < 1 || r.col_bits > pg_bloom_max_col_bits) out_of_range("col_bits", r.col_bits, pg_bloom_max_col_bits);
  if (r.columns < 1 || r.columns > pg_bloom_max_columns) out_of_range("columns", r.columns, pg_bloom_max_columns);
  if (r.rows > pg_bloom_max_rows) out_of_range("rows", r.rows, pg_bloom_max_rows);

  pg_bloom_report rep{};
  rep.request = r;
  rep.signature_bits = pg_bloom_signature_bits(r.length);
  rep.signature_bytes = rep.signature_bits / 8;
  rep.row_bits = std::uint64_t{r.columns} * r.col_bits;
  const double L = static_cast<double>(rep.signature_bits);
  rep.fill = -std::expm1(static_cast<double>(rep.row_bits) * std::log1p(-1.0 / L));
  for (const auto& b : pg_bloom_by_query_bits(rep.signature_bits, rep.row_bits, r.col_bits)) {
    rep.by_query_bits.push_back({b.t, b.probability, b.share});
    rep.share += b.probability * b.share;
  }
  rep.share = std::clamp(rep.share, 0.0, 1.0);
  rep.share_fill = pg_bloom_recheck_share_fill(rep.signature_bits, rep.row_bits, r.col_bits);
  rep.rows_rechecked = static_cast<double>(r.rows) * rep.share;
  return rep;
}

std::string to_json(const pg_bloom_report& r, int indent) {
  using json = nlohmann::ordered_json;
  json by = json::array();
  // Values setting fewer distinct bits than col_bits are rare; rows below
  // 1e-12 of the values are left out (a long tail at large col_bits).
  for (const auto& b : r.by_query_bits)
    if (b.probability >= 1e-12) by.push_back({{"t", b.t}, {"probability", b.probability}, {"share", b.share}});
  json j = {{"length", r.request.length},
            {"col_bits", r.request.col_bits},
            {"columns", r.request.columns},
            {"signature_bits", r.signature_bits},
            {"signature_bytes", r.signature_bytes},
            {"row_bits", r.row_bits},
            {"fill", r.fill},
            {"share", r.share},
            {"share_fill", r.share_fill},
            {"by_query_bits", by}};
  if (r.request.rows > 0) {
    j["rows"] = r.request.rows;
    j["rows_rechecked"] = r.rows_rechecked;
  }
  return j.dump(indent);
}

}  // namespace bloomlab::lab
