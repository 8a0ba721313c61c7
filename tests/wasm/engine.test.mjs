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
const realField = /^(fpr_|fill|bits_per_item|ci_|k_optimal|rates$|one_in_|p$|x$)/;

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
  for (let i = 0; i < 20; ++i) {
    const t0 = performance.now();
    engine.run('measure', request);
    times.push(performance.now() - t0);
  }
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
