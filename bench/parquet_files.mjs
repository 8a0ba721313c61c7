// DuckDB's half of bench/parquet_bench.py (npm @duckdb/node-api):
//   node parquet_files.mjs write DIR FILES ROWS   writes FILES Parquet files of ROWS rows each
//                                                (id BIGINT, 250 distinct; name VARCHAR, 300;
//                                                row groups of ROWS/2; filters at 1%)
//   node parquet_files.mjs metadata GLOB          parquet_metadata over the files: filters, their bytes
//   node parquet_files.mjs probe GLOB COLUMN V    parquet_bloom_probe of one value: row groups, excluded
//   node parquet_files.mjs nothing                the process and DuckDB's start alone (SELECT 1)
// Each prints one JSON line; the Python side times the whole process.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, ...args] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:')).connect();
const quote = (s) => "'" + String(s).replaceAll("'", "''") + "'";
const one = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson()[0];

if (mode === 'write') {
  const [dir, files, rows] = [args[0], Number(args[1]), Number(args[2])];
  for (let f = 0; f < files; ++f) {
    // A few hundred distinct values a row group: DuckDB writes a filter only
    // for a dictionary-encoded chunk.
    const select = `SELECT (${f} * 1000 + i % 250)::BIGINT AS id, 'user_' || ((${f} * 7 + i) % 300) AS name
        FROM range(${rows}) t(i)`;
    await con.run(`COPY (${select}) TO ${quote(`${dir}/part-${String(f).padStart(5, '0')}.parquet`)}
        (FORMAT parquet, ROW_GROUP_SIZE ${rows / 2}, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`);
  }
  console.log(JSON.stringify({ files }));
} else if (mode === 'metadata') {
  console.log(JSON.stringify(await one(`SELECT count(*)::INTEGER AS filters,
      sum(bloom_filter_length)::BIGINT AS bytes FROM parquet_metadata(${quote(args[0])})
      WHERE bloom_filter_offset IS NOT NULL`)));
} else if (mode === 'probe') {
  const [glob, column, value] = args;
  console.log(JSON.stringify(await one(`SELECT count(*)::INTEGER AS row_groups,
      count(*) FILTER (WHERE bloom_filter_excludes)::INTEGER AS excluded
      FROM parquet_bloom_probe(${quote(glob)}, ${quote(column)}, ${value})`)));
} else if (mode === 'nothing') {
  console.log(JSON.stringify(await one('SELECT 1 AS one')));
} else {
  console.error('usage: parquet_files.mjs write DIR FILES ROWS | metadata GLOB | probe GLOB COLUMN V | nothing');
  process.exit(2);
}
