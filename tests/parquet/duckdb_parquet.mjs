// DuckDB (npm @duckdb/node-api) as the other side of bloomlab's Parquet
// tests: it writes Parquet files with split-block Bloom filters, says where
// their filters are, and probes them with parquet_bloom_probe.
//
//   node duckdb_parquet.mjs write DIR       writes DIR/ints.parquet, DIR/strings.parquet,
//                                           DIR/mixed.parquet, DIR/plain.parquet; prints
//                                           parquet_metadata's rows for them as JSON
//   node duckdb_parquet.mjs write-small DIR  writes three small files (the fuzzer's seeds)
//   node duckdb_parquet.mjs write-verdicts DIR
//                                           writes DIR/oversized.parquet (a rate of 1e-9 for few
//                                           values) and DIR/right.parquet (1%); prints
//                                           parquet_metadata's rows for them as JSON
//   node duckdb_parquet.mjs write-sample FILE
//                                           writes the page's sample file
//   node duckdb_parquet.mjs metadata DIR NAME...
//                                           prints parquet_metadata's rows for DIR/NAME... as JSON
//   node duckdb_parquet.mjs probe FILE COLUMN VALUE...
//                                           prints [{value, excludes: [per row group]}] as JSON
//
// The values are formulas of the row number i, which the C++ tests compute too.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, ...args] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:')).connect();
await con.run('SET threads = 1');  // rows in order, row groups as cut
const quote = (s) => "'" + String(s).replaceAll("'", "''") + "'";

// parquet_metadata's rows for DIR/NAME of each name, each with its "file".
async function metadata(dir, names) {
  const out = [];
  for (const name of names) {
    const r = await con.runAndReadAll(`SELECT row_group_id, row_group_num_rows, path_in_schema, type,
        bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${quote(dir + '/' + name)})
        ORDER BY row_group_id, column_id`);
    for (const row of r.getRowObjectsJson()) out.push({ file: name, ...row });
  }
  return out;
}

if (mode === 'write') {
  const dir = args[0];
  const rows = 'FROM range(40960) t(i)';
  const files = {
    // BIGINT (INT64): 3,000 distinct values a row group, negatives included.
    'ints.parquet': [`SELECT ((i * 7919) % 3000 - 1500)::BIGINT AS id ${rows}`, 0.01],
    // VARCHAR (BYTE_ARRAY): 1,200 distinct strings a row group.
    'strings.parquet': [`SELECT 'user_' || ((i * 31) % 1200) AS name ${rows}`, 0.01],
    // Both, at another rate, and a column of few values.
    'mixed.parquet': [`SELECT (i % 700)::BIGINT AS id, 'k' || (i % 250) AS name ${rows}`, 0.001],
    // No filter asked for.
    'plain.parquet': [`SELECT (i % 700)::BIGINT AS id ${rows}`, null],
  };
  for (const [name, [select, p]] of Object.entries(files)) {
    const opts = ['FORMAT parquet', 'ROW_GROUP_SIZE 20480'];
    if (p !== null) opts.push(`BLOOM_FILTER_FALSE_POSITIVE_RATIO ${p}`);
    else opts.push('WRITE_BLOOM_FILTER false');
    await con.run(`COPY (${select}) TO ${quote(dir + '/' + name)} (${opts.join(', ')})`);
  }
  console.log(JSON.stringify(await metadata(dir, Object.keys(files))));
} else if (mode === 'write-small') {
  // Small files of every physical type DuckDB gives a filter (under 8 KiB:
  // the fuzzer's seeds, tests/fuzz/corpus_parquet), 300 rows each.
  const dir = args[0];
  const small = {
    'types.parquet': `SELECT (i % 50)::INTEGER AS i32, (i % 60)::BIGINT AS i64, ((i % 40) / 4)::DOUBLE AS f64,
        ((i % 20) / 2)::FLOAT AS f32, 'n' || (i % 30) AS s FROM range(300) t(i)`,
    'one.parquet': `SELECT 'only' AS s FROM range(3) t(i)`,
  };
  for (const [name, select] of Object.entries(small))
    await con.run(`COPY (${select}) TO ${quote(dir + '/' + name)} (FORMAT parquet, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`);
  await con.run(`COPY (SELECT (i % 50)::BIGINT AS id FROM range(300) t(i)) TO ${quote(dir + '/none.parquet')}
      (FORMAT parquet, WRITE_BLOOM_FILTER false)`);
  console.log(JSON.stringify(['types.parquet', 'one.parquet', 'none.parquet']));
} else if (mode === 'write-verdicts') {
  // A filter far larger than its values need (the writers' sizing at 1%
  // gives 512 bytes for 300 values, 64 for 50; a rate of 1e-9 asks for 8
  // and 16 times that), beside ones sized at 1%, and a column of 2 values
  // (32 bytes either way, the least a filter has).
  const dir = args[0];
  const files = {
    'oversized.parquet': [`SELECT (i % 300)::BIGINT AS id, ((i % 50) / 4)::DOUBLE AS d, 'k' || (i % 2) AS s
        FROM range(6000) t(i)`, '0.000000001'],
    'right.parquet': [`SELECT (i % 1000)::BIGINT AS id, 'v' || (i % 900) AS s FROM range(9000) t(i)`, '0.01'],
  };
  const out = [];
  for (const [name, [select, p]] of Object.entries(files)) {
    const path = dir + '/' + name;
    await con.run(`COPY (${select}) TO ${quote(path)} (FORMAT parquet, BLOOM_FILTER_FALSE_POSITIVE_RATIO ${p})`);
    const r = await con.runAndReadAll(`SELECT row_group_id, path_in_schema, type, stats_distinct_count,
        bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${quote(path)}) ORDER BY row_group_id, column_id`);
    for (const row of r.getRowObjectsJson()) out.push({ file: name, ...row });
  }
  console.log(JSON.stringify(out));
} else if (mode === 'write-sample') {
  // The page's sample (web/sample.parquet, about 9 KB): 2,048 orders of a
  // small shop in one row group, one column of each physical type DuckDB
  // gives a filter. DuckDB sizes each filter at 0.01% for the column's
  // distinct values, so the verdicts differ by column: the amounts come out
  // 4 times the writers' sizing at 1% (oversized), the others 1 or 2 times.
  const file = args[0];
  await con.run(`COPY (SELECT (1000 + (i * 37) % 300)::BIGINT AS customer_id, 'P-' || lpad(((i * 13) % 120)::VARCHAR, 4, '0') AS product,
      ((i * 7) % 90 + 10)::INTEGER AS quantity, ((i * 53) % 200) / 4::DOUBLE AS amount,
      ['DE', 'FR', 'NL', 'US', 'JP', 'BR'][1 + (i % 6)] AS country
      FROM range(2048) t(i)) TO ${quote(file)} (FORMAT parquet, ROW_GROUP_SIZE 1024, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.0001)`);
  console.log(JSON.stringify([file]));
} else if (mode === 'metadata') {
  console.log(JSON.stringify(await metadata(args[0], args.slice(1))));
} else if (mode === 'probe') {
  const [file, column, ...values] = args;
  const out = [];
  for (const v of values) {
    const r = await con.runAndReadAll(`SELECT row_group_id, bloom_filter_excludes
        FROM parquet_bloom_probe(${quote(file)}, ${quote(column)}, ${quote(v)}) ORDER BY row_group_id`);
    out.push({ value: v, excludes: r.getRowObjectsJson().map((x) => x.bloom_filter_excludes) });
  }
  console.log(JSON.stringify(out));
} else {
  console.error('usage: duckdb_parquet.mjs write DIR | write-small DIR | write-verdicts DIR | write-sample FILE | probe FILE COLUMN VALUE...');
  process.exit(2);
}
