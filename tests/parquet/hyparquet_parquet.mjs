// hyparquet-writer (npm), a second Parquet writer beside DuckDB, for
// bloomlab's Parquet tests: it writes files with split-block Bloom filters
// in JavaScript, with its own hashing and sizing (DuckDB, an independent
// reader, then says where their filters are: duckdb_parquet.mjs metadata).
//
//   node hyparquet_parquet.mjs write DIR   writes DIR/hp_ints.parquet (INT64),
//                                          DIR/hp_strings.parquet (BYTE_ARRAY, UTF8),
//                                          DIR/hp_doubles.parquet (DOUBLE); prints
//                                          their names as JSON
//
// Each file holds 40,960 rows in two row groups of 20,480; the values are
// formulas of the row number i, which the C++ tests compute too
// (hyparquet_files.hpp).
import { parquetWriteFile } from 'hyparquet-writer';

const [mode, dir] = process.argv.slice(2);
if (mode !== 'write' || !dir) {
  console.error('usage: hyparquet_parquet.mjs write DIR');
  process.exit(2);
}
const rows = 40960;
const column = (name, type, f, fpp) => ({
  name, type, data: Array.from({ length: rows }, (_, i) => f(i)), bloomFilter: { fpp },
});
const files = {
  'hp_ints.parquet': column('id', 'INT64', (i) => BigInt((i * 7919) % 5000 - 2500), 0.01),
  'hp_strings.parquet': column('name', 'STRING', (i) => 'h_' + ((i * 13) % 900), 0.01),
  'hp_doubles.parquet': column('x', 'DOUBLE', (i) => ((i * 17) % 1500) / 4, 0.001),
};
for (const [name, col] of Object.entries(files))
  parquetWriteFile({ filename: `${dir}/${name}`, rowGroupSize: 20480, codec: 'UNCOMPRESSED', columnData: [col] });

console.log(JSON.stringify(Object.keys(files)));
