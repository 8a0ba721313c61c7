// pg_bloom: PostgreSQL's bloom index (contrib/bloom) as bloomlab predicts it.
// A signature of `length` bits (rounded up to 16-bit words) for each row,
// `col_bits` bits from each of `columns` indexed columns; the report says
// what share of rows an equality on one column lets through for a value no
// row holds, which the heap recheck then removes (math.hpp has the formula
// and its assumptions; docs/pgbloom.md the measurement beside it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bloomlab::lab {

// PostgreSQL's own limits: length 1..4096, at most 32 indexed columns
// (INDEX_MAX_KEYS). It takes up to 4095 bits a column; bloomlab computes up
// to 64 (the engine's largest k), far past any useful setting.
inline constexpr std::uint64_t pg_bloom_max_columns = 32;
inline constexpr std::uint64_t pg_bloom_max_col_bits = 64;
inline constexpr std::uint64_t pg_bloom_max_rows = std::uint64_t{1} << 50;

struct pg_bloom_request {
  std::uint64_t length = 80;    // signature bits asked for, 1..4096
  unsigned col_bits = 2;        // bits each indexed column sets, 1..64
  unsigned columns = 6;         // indexed columns, 1..32
  std::uint64_t rows = 0;       // rows in the table (0: no row counts in the report)
};

struct pg_bloom_bits_row {
  unsigned t;          // distinct bits the searched value sets
  double probability;  // share of values that set t distinct bits
  double share;        // share of rows let through for such a value
};

struct pg_bloom_report {
  pg_bloom_request request;
  std::uint64_t signature_bits;  // length rounded up to a multiple of 16
  std::uint64_t signature_bytes;
  std::uint64_t row_bits;        // draws in a row's signature: columns * col_bits
  double fill;                   // expected share of a row's signature bits set
  double share;                  // rows let through, averaged over absent values
  double share_fill;             // the fill form (1 - (1 - 1/L)^D)^c
  std::vector<pg_bloom_bits_row> by_query_bits;
  double rows_rechecked;         // rows * share (0 without rows)
};

// Needs the request within the limits above (front ends check with
// parse_pg_bloom_field); throws std::invalid_argument otherwise.
pg_bloom_report pg_bloom(const pg_bloom_request& r);

std::string to_json(const pg_bloom_report& r, int indent = 2);

}  // namespace bloomlab::lab
