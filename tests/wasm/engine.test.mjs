// The page's engine (bloomlab.mjs + bloomlab.wasm, built by `make wasm`)
// against the native CLI (`bloomlab ... --json`): the same C++ code, so the
// same reports. Run with `node --test tests/wasm/` (node 20's own runner).
//
// Integers must be equal. Floating-point fields may differ in the last bits:
// WebAssembly's long double is 128-bit where x86's is 80-bit, and
// Emscripten's libm (musl) is not glibc's, so log, exp and pow may round
// differently. They must agree to a relative 1e-12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const site = new URL('build/release/site/', root);
const cli = new URL('build/release/src/bloomlab', root).pathname;

// Emscripten 3.1.6's ES6 module does not find its .wasm under node by
// itself: the bytes are passed in.
const { default: createBloomlab } = await import(new URL('bloomlab.mjs', site));
const engine = await createBloomlab({ wasmBinary: readFileSync(new URL('bloomlab.wasm', site)) });

function run(op, request) {
  return JSON.parse(engine.run(op, JSON.stringify(request)));
}

function bloomlab(...args) {
  return JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8' }));
}

const sample = readFileSync(new URL('data/sample.txt', root), 'utf8').split('\n').filter((l) => l.trim() !== '');

// Fields that hold real numbers; every other number is a count or an index.
const realField = /^(estimated_distinct|ratio$|n$|fpr_|fill|bits_per_item|ci_|k_optimal|rates$|one_in_|p$|x$|p0$|s$|r$|load_factor|scalable_|fixed_fpr|direct_fpr|a$|b$|union$|intersection$|[a-z]+_se$|share|probability$|rows_rechecked$|fpr$|decoys_|own_share|download_)/;

function assertSame(got, want, path = '', key = '') {
  if (typeof want === 'number' && typeof got === 'number') {
    if (got === want) return;
    assert.ok(realField.test(key), `${path}: ${got} != ${want} (a whole-number field must be equal)`);
    const rel = Math.abs(got - want) / Math.max(Math.abs(want), Number.MIN_VALUE);
    assert.ok(rel <= 1e-12, `${path}: ${got} vs ${want}, relative difference ${rel}`);
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${path}: not a list`);
    assert.equal(got.length, want.length, `${path}: length`);
    want.forEach((w, i) => assertSame(got[i], w, `${path}[${i}]`, key));
    return;
  }
  if (want !== null && typeof want === 'object') {
    assert.deepEqual(Object.keys(got), Object.keys(want), `${path}: fields`);
    for (const k of Object.keys(want)) assertSame(got[k], want[k], `${path}.${k}`, k);
    return;
  }
  assert.equal(got, want, path);
}

test('size: n = 20, p = 1% with prime rounding gives m = 193, k = 7, as the CLI', () => {
  const r = run('size', { n: 20, p: '1%', prime: true });
  assertSame(r, bloomlab('size', '--n', '20', '--p', '0.01', '--prime'));
  assert.equal(r.m, 193);
  assert.equal(r.k, 7);
});

test('parse: sizes, counts and rates as people type them are the numbers the CLI reads', () => {
  for (const m of ['64KiB', '1.5 GB', '4 Mb', '8192 bits', '2,000']) {
    assert.equal(run('parse', { as: 'bits', text: m }).value, bloomlab('analyze', '--m', m, '--n', '10', '--k', '1').m, m);
  }
  for (const n of ['10k', '4M', '1e6', '2_000']) {
    assert.equal(run('parse', { as: 'count', text: n }).value, bloomlab('size', '--n', n, '--p', '0.01').n, n);
  }
  for (const p of ['1 in 1000', '1/1000', '0.1%', '1e-3']) {
    assert.equal(run('parse', { as: 'rate', text: p }).value, bloomlab('size', '--n', '10', '--p', p).p, p);
  }
  const e = run('parse', { as: 'bits', text: '1KiB', field: 'm', lo: 8, hi: 256 }).error;
  assert.equal(e.message, "m: '1KiB' is out of range; allowed: a whole number from 8 to 256");
});

test('analyze: every formula, and the exact rate of plain double hashing at m = 101', () => {
  assertSame(run('analyze', { m: 2000, n: 200, k: 7 }), bloomlab('analyze', '--m', '2000', '--n', '200', '--k', '7'));
  assertSame(run('analyze', { m: '101', n: '10', k: '7', scheme: 'double' }),
    bloomlab('analyze', '--m', '101', '--n', '10', '--k', '7', '--scheme', 'double'));
});

test('measure: the sample list at m = 2000, k = 7 gives the CLI report', () => {
  const file = new URL('data/sample.txt', root).pathname;
  const r = run('measure', { items: sample, m: 2000, k: 7 });
  assertSame(r, bloomlab('measure', file, '--m', '2000', '--k', '7'));
  assert.equal(r.n, 200);
  assertSame(run('measure', { items: sample, m: 1024, k: 3, hash: 'fnv1a', scheme: 'independent', probes: 5000 }),
    bloomlab('measure', file, '--m', '1024', '--k', '3', '--hash', 'fnv1a', '--scheme', 'independent', '--probes', '5000'));
});

test('measure: 200 items against 10,000 probes, timed inside the module', () => {
  const request = JSON.stringify({ items: sample, m: 2000, k: 7, probes: 10000, step: 20 });
  const times = [];
  const answers = new Set();
  for (let i = 0; i < 20; ++i) {
    const t0 = performance.now();
    answers.add(engine.run('measure', request));
    times.push(performance.now() - t0);
  }
  // What was timed is the real answer, the same every call, and the CLI's.
  assert.equal(answers.size, 1, 'every timed call gives the same report');
  const r = JSON.parse([...answers][0]);
  assert.equal(r.probes, 10000);
  assert.equal(r.n, 200);
  assertSame(r, bloomlab('measure', new URL('data/sample.txt', root).pathname, '--m', '2000', '--k', '7', '--probes', '10000', '--step', '20'));
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`measure, 200 items, 10,000 probes, with the table: first call ${times[0].toFixed(2)} ms, ` +
    `median of 20 ${sorted[10].toFixed(2)} ms, fastest ${sorted[0].toFixed(2)} ms`);
});

test('positions and hash: the same bits and digests as the CLI', () => {
  const texts = ['cherry', 'peach', 'papaya', '', 'ünïcødé'];
  assertSame(run('positions', { m: 32, k: 3, texts }), bloomlab('positions', '--m', '32', '--k', '3', ...texts));
  assertSame(run('positions', { m: '1,000,003', k: 10, hash: 'fnv1a', scheme: 'double', texts }),
    bloomlab('positions', '--m', '1000003', '--k', '10', '--hash', 'fnv1a', '--scheme', 'double', ...texts));
  assertSame(run('hash', { fn: 'murmur3_x64_128', seed: 9, texts }), bloomlab('hash', '--fn', 'murmur3_x64_128', '--seed', '9', ...texts));
});

test('stage: each item and query lights the bits the CLI gives, and the bits set are their union', () => {
  const items = ['apple', 'banana', 'cherry', 'mango', 'apple'];
  const queries = ['cherry', 'peach', 'papaya'];
  const r = run('stage', { m: 32, k: 3, items, queries });
  const positions = new Map(bloomlab('positions', '--m', '32', '--k', '3', ...items, ...queries).map((e) => [e.text, e.positions]));
  assert.deepEqual(r.items.map((it) => it.text), ['apple', 'banana', 'cherry', 'mango']);
  const set = new Set();
  for (const it of r.items) {
    assert.deepEqual(it.positions, positions.get(it.text), it.text);
    it.positions.forEach((p) => set.add(p));
  }
  assert.equal(r.bits_set, set.size);
  for (const q of r.queries) {
    assert.deepEqual(q.positions, positions.get(q.text), q.text);
    assert.deepEqual(q.lit, q.positions.map((p) => set.has(p)), q.text);
    assert.equal(q.maybe, q.lit.every(Boolean));
    assert.equal(q.member, items.includes(q.text));
  }
  const exact = bloomlab('analyze', '--m', '32', '--n', '4', '--k', '3');
  assertSame({ fpr_approx: r.fpr_approx, fpr_exact: r.fpr_exact }, { fpr_approx: exact.fpr_approx, fpr_exact: exact.fpr_exact });
});

test('trials: a small seeded run gives the CLI per-filter rates and interval', () => {
  assertSame(run('trials', { m: 2003, n: 200, k: 7, filters: 8, probes: 1000, seed: 7, scheme: 'double' }),
    bloomlab('trials', '--m', '2003', '--n', '200', '--k', '7', '--filters', '8', '--probes', '1000', '--seed', '7', '--scheme', 'double'));
});

test('a bad field gives the error object, in the CLI words', () => {
  assert.deepEqual(run('measure', { items: sample, m: 0 }), {
    error: { field: 'm', value: '0', message: "m: '0' is out of range; allowed: a whole number from 1 to 4294967296" },
  });
  assert.equal(run('analyze', { m: 100, n: 10, k: 'lots' }).error.field, 'k');
  assert.equal(run('measure', { items: [] }).error.field, 'items');
  const bad = JSON.parse(engine.run('size', '{"n": '));
  assert.equal(bad.error.field, null);
  assert.match(bad.error.message, /not valid JSON/);
  // The module keeps working after refusing.
  assert.equal(run('size', { n: 20, p: 0.01, prime: true }).m, 193);
});

test('10,000 bad requests leave the module as it was: each answered with the error object, nothing kept', () => {
  // The meter: bytes malloc has handed out and not taken back.
  const base = engine.heap_in_use();
  const held = engine._malloc(1000);
  assert.ok(engine.heap_in_use() >= base + 1000);
  engine._free(held);
  assert.equal(engine.heap_in_use(), base);

  const deep = (n) => '['.repeat(n) + ']'.repeat(n);
  const bad = [
    ['measure', `{"items": ${deep(10000)}}`],
    ['size', deep(10000)],
    ['analyze', '{'.repeat(10000)],
    ['curves', `{"m": {"a": ${deep(40)}}}`],
    ['size', '{"n": '],
    ['analyze', '{"m": 100, "n": 10, "k": 3,}'],
    ['analyze', JSON.stringify({ m: 0, n: 10, k: 3 })],
    ['measure', JSON.stringify({ items: ['a'], hash: 'md5' })],
    ['stage', JSON.stringify({ m: 32, k: 3, items: Array(run('limits', {}).stage_items + 1).fill('w') })],
    ['size\0evil', '{}'],
    ['removal', JSON.stringify({ items: ['a'], m: 4294967296, k: 7, width: 8 })],
  ];
  for (let i = 0; i < 10000; ++i) {
    const [op, text] = bad[i % bad.length];
    const r = JSON.parse(engine.run(op, text));
    assert.ok(r.error, `${op} ${text.slice(0, 40)}`);
    assert.match(r.error.message, /\s/, `a sentence, never a bare library word: ${r.error.message}`);
  }
  assert.match(run('size', JSON.parse(`{"n": ${deep(33)}}`)).error.message, /nests lists and objects 34 deep; allowed: at most 32 deep/);
  assert.match(JSON.parse(engine.run('size\0evil', '{}')).error.message, /^'size\\u0000evil' is not an operation/);
  assertSame(run('analyze', { m: 2000, n: 200, k: 7 }), bloomlab('analyze', '--m', '2000', '--n', '200', '--k', '7'));
  assert.equal(engine.heap_in_use(), base);
});

// ---- the filter family -------------------------------------------------------

function cliText(...args) {
  return execFileSync(cli, args, { encoding: 'utf8' });
}

test('removal: the hazard on the first twenty words, as the CLI finds it', () => {
  const file = new URL('data/sample.txt', root).pathname;
  const twenty = sample.slice(0, 20);
  const r = run('removal', { items: twenty, m: 193, k: 7 });
  assertSame(r, JSON.parse(execFileSync(cli, ['removal', '-', '--m', '193', '--k', '7', '--json'],
    { encoding: 'utf8', input: twenty.join('\n') })));
  assert.equal(r.removed.length, 1);
  assert.equal(r.removed[0].member, false);
  assert.ok(r.false_negatives.length >= 1);
  assertSame(run('removal', { items: sample, m: 3000, k: 5, width: 2, hash: 'fnv1a', remove: ['apple', 'nothing-here'] }),
    bloomlab('removal', file, '--m', '3000', '--k', '5', '--width', '2', '--hash', 'fnv1a', '--remove', 'apple', '--remove', 'nothing-here'));
});

test('combine: OR and AND against the direct filters, as the CLI gives them', () => {
  const file = new URL('data/sample.txt', root).pathname;
  const b = sample.slice(150).concat(['kiwi-a', 'kiwi-b']);
  const r = run('combine', { a: sample, b, m: 2000, k: 7, probes: 5000 });
  assertSame(r, JSON.parse(execFileSync(cli, ['combine', file, '-', '--m', '2000', '--k', '7', '--probes', '5000', '--json'],
    { encoding: 'utf8', input: b.join('\n') })));
  assert.equal(r.union.same_as_direct, true);
  assert.ok(r.intersection.fpr_measured >= r.intersection.direct_fpr_measured);
});

test('bip37: 20,000 items at 0.1% in 35,943 bytes, and the same message body as the CLI', () => {
  const r = run('bip37', { n: 20000, p: 0.001 });
  assertSame(r, bloomlab('bip37', '--n', '20000', '--p', '0.001'));
  assert.equal(r.size_bytes, 35943);
  assert.equal(r.n_hash_funcs, 9);
  const items = ['00ff', 'DEADBEEF', ''];
  const small = run('bip37', { n: 3, p: '1%', tweak: 5, flags: 1, items_hex: items });
  assert.equal(small.message_hex + '\n', cliText('bip37', '--n', '3', '--p', '1%', '--tweak', '5', '--flags', '1', ...items));
  assert.equal(run('bip37', { n: 3, p: 0.01, items_hex: ['xyz'] }).error.field, 'items_hex');
});

test('pg_bloom: PostgreSQL\'s bloom index as `bloomlab pgbloom` reports it, and its refusals', () => {
  assertSame(run('pg_bloom', {}), bloomlab('pgbloom'));
  const r = run('pg_bloom', { length: 64, col_bits: 3, columns: 4, rows: 1000000 });
  assertSame(r, bloomlab('pgbloom', '--length', '64', '--col-bits', '3', '--columns', '4', '--rows', '1000000'));
  assert.equal(r.signature_bits, 64);
  assert.equal(run('pg_bloom', { length: 4097 }).error.field, 'length');
  assert.equal(run('pg_bloom', { columns: 33 }).error.field, 'columns');
});

test('privacy: BIP 37\'s rate as a privacy dial, as `bloomlab attack privacy` measures it', () => {
  assertSame(run('privacy', {}), bloomlab('attack', 'privacy'));
  const r = run('privacy', { n: 50, p: 0.01, txs: 20000, own: 30, filters: 3, seed: 7 });
  assertSame(r, bloomlab('attack', 'privacy', '--n', '50', '--p', '0.01', '--txs', '20000', '--own', '30', '--filters', '3', '--seed', '7'));
  assert.ok(r.steps.every((s) => s.own_matched === 30));
  assert.equal(run('privacy', { outputs: 5 }).error.field, 'outputs');
});

test('cuckoo_stage and growing: page-only reports hold together', () => {
  const c = run('cuckoo_stage', { items: sample.slice(0, 40), deletes: ['apple'], queries: ['apple', 'banana'], buckets: 8 });
  assert.equal(c.table.length, 8);
  assert.equal(c.table[0].length, 4);
  assert.equal(c.slots, 4);
  for (const ins of c.inserts) assert.ok(ins.chain.length >= 1);
  const g = run('growing', { n: 5000, n0: 500, p0: 0.01 });
  assert.equal(g.rows.length, 21);
  for (const row of g.rows) {
    // Within four standard errors (10,000 probes) of what the bits predict.
    const se = Math.sqrt(row.scalable_current * (1 - row.scalable_current) / 10000);
    assert.ok(Math.abs(row.scalable_fpr_measured - row.scalable_current) <= 4 * se + 1e-12, `n = ${row.n}`);
    assert.ok(row.scalable_planned < 0.01 / (1 - 0.85), `n = ${row.n}`);
  }
  assert.equal(run('growing', { n: 5000, n0: 500, p0: 0.01, s: 0.5 }).error.field, 's');
});

test('tune and curves: the blocked filter beside the classic one', () => {
  const t = run('tune', { mode: 'n_p', n: 1000000, p: 0.01 });
  assert.ok(t.fpr_blocked > t.fpr_approx);
  assert.equal(t.blocked_m % 512, 0);
  // RocksDB's 10 bits a key in its own layout: the native build's figures (tests/lab/test_tune.cpp).
  const r = run('tune', { mode: 'n_m', n: 1000000, m: 10000000 });
  assert.equal(r.k_cache_line, 7);
  assert.ok(Math.abs(r.fpr_cache_line - 0.0095695480690166593) < 1e-15);
  assert.ok(r.fpr_cache_line < r.fpr_blocked);
  const c = run('curves', { m: 2000, n: 200, k: 7 });
  for (const key of ['vs_n', 'vs_k', 'vs_m']) assert.equal(c[key].fpr_blocked.length, c[key].x.length);
});

test('family ops at page size, timed inside the module', () => {
  const words = Array.from({ length: 200 }, (_, i) => `word-${i + 1}`);
  const requests = [
    ['removal', { items: words, m: 2000, k: 7 }],
    ['combine', { a: words, b: words.slice(100).concat(['x', 'y']), m: 2000, k: 7 }],
    ['bip37', { n: 20000, p: 0.001, items_hex: ['00ff'] }],
    ['cuckoo_stage', { items: words.slice(0, 30), deletes: ['word-1'], queries: ['word-1', 'x'] }],
    ['growing', { n: 20000, n0: 1000, p0: 0.01 }],
    ['tune', { mode: 'n_p', n: 1000000, p: 0.01 }],
    ['curves', { m: 2000, n: 200, k: 7 }],
  ];
  for (const [op, request] of requests) {
    const text = JSON.stringify(request);
    const times = [];
    const answers = new Set();
    for (let i = 0; i < 5; ++i) {
      const t0 = performance.now();
      answers.add(engine.run(op, text));
      times.push(performance.now() - t0);
    }
    // Each timed call did the work: an answer, not an error, the same each time.
    assert.equal(answers.size, 1, `${op}: every timed call gives the same answer`);
    const r = JSON.parse([...answers][0]);
    assert.equal(r.error, undefined, `${op}: ${r.error && r.error.message}`);
    console.log(`${op}: fastest of 5 ${Math.min(...times).toFixed(2)} ms`);
  }
});

test('gate_sim: the filter the page\'s database worker keeps answers as gate_sim does, and gate_unban replays the orders', () => {
  const request = { banned: 2000, traffic: 5000, share: '10%', p: '5%', seed: 3, unban: 1000 };
  const r = run('gate_sim', request);
  assert.equal(r.banned.length, 2000);
  assert.equal(r.traffic.length, 5000);
  assert.equal(r.orders, 1000);
  const gate = new engine.GateFilter(JSON.stringify(request));
  try {
    const maybe = [];
    r.traffic.forEach((key, i) => { if (gate.contains(key)) maybe.push(i); });
    assert.deepEqual(maybe, r.maybe);
  } finally {
    gate.delete();
  }
  assert.throws(() => new engine.GateFilter(JSON.stringify({ banned: 0 })));
  // The database's answers to the unban orders: the first delete of a banned key.
  const banned = new Set(r.banned), gone = new Set(), confirmed = [];
  r.traffic.slice(0, r.orders).forEach((key, i) => {
    if (banned.has(key) && !gone.has(key)) {
      gone.add(key);
      confirmed.push(i);
    }
  });
  const u = run('gate_unban', { ...request, confirmed });
  assert.equal(u.confirmed, confirmed.length);
  assert.equal(u.with_confirmation.false_negatives, 0);
  assert.ok(u.without_confirmation.false_negatives > 0);
});

// which: every kind on the sample list, and on generated items one kind a
// call as the page asks, against `bloomlab which`. The two times are this
// machine's, now: every other field must agree.
function sameWhich(got, want) {
  const times = new Set(['build_ns_per_item', 'lookup_ns']);
  const real = new Set(['p', 'floor_bits_per_item', 'bits_per_item', 'expected_fpr', 'measured_fpr', 'fpr_low', 'fpr_high']);
  const check = (g, w, path) => {
    for (const k of Object.keys(w)) {
      if (times.has(k)) continue;
      if (real.has(k) && typeof w[k] === 'number') {
        const rel = Math.abs(g[k] - w[k]) / Math.max(Math.abs(w[k]), Number.MIN_VALUE);
        assert.ok(rel <= 1e-12, `${path}.${k}: ${g[k]} vs ${w[k]}`);
      } else {
        assert.deepEqual(g[k], w[k], `${path}.${k}`);
      }
    }
    assert.deepEqual(Object.keys(g), Object.keys(w), `${path}: fields`);
  };
  check({ ...got, rows: null }, { ...want, rows: null }, 'which');
  assert.equal(got.rows.length, want.rows.length, 'rows');
  got.rows.forEach((row, i) => check(row, want.rows[i], `rows[${i}]`));
}

test('which: every kind on the sample list, and one kind a call on generated items, as the CLI', () => {
  const file = new URL('data/sample.txt', root).pathname;
  const whole = run('which', { items: sample, p: '1%', probes: 20000 });
  assert.equal(whole.error, undefined, whole.error && whole.error.message);
  assert.equal(whole.rows.length, 14);
  sameWhich(whole, bloomlab('which', '--items', file, '--p', '1%', '--probes', '20000'));
  const cli = bloomlab('which', '--n', '5000', '--p', '0.5%', '--probes', '30000');
  const rows = cli.kinds.map((kind) => {
    const r = run('which', { n: 5000, p: 0.005, probes: 30000, kinds: [kind] });
    assert.equal(r.error, undefined, r.error && r.error.message);
    return r.rows[0];
  });
  sameWhich({ ...cli, rows }, cli);
});

test('drill: the three problems with an exact set and with a filter, over seeded trials, as the CLI', () => {
  const real = /^(fpr_expected|wrong_rate|wrong_low|wrong_high)$/;
  const same = (got, want, path) => {
    if (want !== null && typeof want === 'object') {
      assert.deepEqual(Object.keys(got), Object.keys(want), `${path}: fields`);
      for (const k of Object.keys(want)) {
        if (real.test(k)) {
          const rel = Math.abs(got[k] - want[k]) / Math.max(Math.abs(want[k]), Number.MIN_VALUE);
          assert.ok(rel <= 1e-12, `${path}.${k}: ${got[k]} vs ${want[k]}`);
        } else {
          same(got[k], want[k], `${path}.${k}`);
        }
      }
      return;
    }
    assert.equal(got, want, path);
  };
  const numbers = '100 4 200 1 3 2 7 11 15 -6';
  const r = run('drill', { numbers, target: 9, m: 48, k: 3, trials: 3000, seed: 5 });
  assert.equal(r.error, undefined, r.error && r.error.message);
  same(r, bloomlab('drill', '--numbers', numbers.replace(/ /g, ','), '--target', '9', '--m', '48', '--k', '3', '--trials', '3000', '--seed', '5'), 'drill');
  assert.ok(r.problems.every((d) => d.wrong > 0), 'a 48-bit filter for 10 numbers goes wrong in some trials of each problem');
});

test('parquet: the sample file DuckDB wrote, whole or only its end, as `bloomlab parquet`', () => {
  const path = new URL('web/sample.parquet', root).pathname;
  const bytes = new Uint8Array(readFileSync(path));
  const parquet = (tail, request) => JSON.parse(engine.parquet(bytes.length, bytes.subarray(0, 4), tail, JSON.stringify(request)));
  const want = bloomlab('parquet', path);
  const whole = parquet(bytes, { name: path });
  assert.equal(whole.error, undefined, whole.error && whole.error.message);
  assertSame(whole, want.files[0], 'parquet');
  // Only the end, from the first filter on: the same report. A byte less,
  // and the first filter lies outside what was read.
  const first = Math.min(...want.files[0].row_groups.flatMap((g) => g.columns.filter((c) => c.bloom_filter).map((c) => c.bloom_filter.offset)));
  assertSame(parquet(bytes.subarray(first), { name: path }), want.files[0], 'parquet (its end)');
  const short = parquet(bytes.subarray(first + 1), { name: 'sample.parquet' });
  assert.equal(short.error.field, 'file');
  assert.match(short.error.message, /^sample\.parquet: row_groups\[0\]\.columns\[\d\] \(\w+\): bytes \d+ to \d+ lie outside the bytes read/);
  // A probe, as the CLI answers it (exit 1 when a filter rules it out).
  for (const [column, value] of [['customer_id', '1000'], ['customer_id', '77'], ['product', 'P-0007'], ['amount', '2.25'], ['quantity', '5']]) {
    let cliOut;
    try {
      cliOut = execFileSync(cli, ['parquet', path, '--column', column, '--probe', value, '--json'], { encoding: 'utf8' });
    } catch (e) {
      assert.equal(e.status, 1, `${column}=${value}: exit ${e.status}`);
      cliOut = e.stdout;
    }
    assertSame(parquet(bytes, { name: path, column, probe: value }), JSON.parse(cliOut).files[0], `${column}=${value}`);
  }
  // Refusals name their field.
  assert.equal(parquet(bytes, { name: 's', column: 'quantity', probe: '3000000000' }).error.field, 'probe');
  assert.equal(parquet(bytes, { name: 's', column: 'nope', probe: '1' }).error.field, 'column');
  assert.equal(parquet(bytes, { name: 's', probe: '1' }).error.field, 'column');
  assert.equal(parquet(new Uint8Array(8), { name: 's' }).error.field, 'file');
});
