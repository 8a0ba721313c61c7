// Section 13, the filters in your Parquet files: Parquet files DuckDB wrote
// (tests/parquet/duckdb_parquet.mjs, npm @duckdb/node-api), dropped on the
// page or picked, and the page's sample, each shown with every figure
// `bloomlab parquet --json` gives for the same file (sizes, fill, the plan
// the writers' sizing makes, the distinct values implied and their interval,
// the rate, the verdict); probes answered as `bloomlab parquet --probe`
// answers them, a value the column's type cannot hold refused beside the
// box, a file that is not Parquet refused beside the drop zone; no sideways
// scroll at 1280 or 390 px, and nothing axe-core finds in the section.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { bloomlab, cli } from './cli.mjs';

const axeSource = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');
import { count, percent, percentSig, thousands } from '../../web/js/format.js';

let dir;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bloomlab-pq-e2e-'));
  execFileSync('node', ['tests/parquet/duckdb_parquet.mjs', 'write-verdicts', dir]);
  execFileSync('node', ['tests/parquet/duckdb_parquet.mjs', 'write', dir]);
  writeFileSync(join(dir, 'notes.parquet'), 'these are not the bytes of a Parquet file\n');
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The table's rows as the page shows them: each row's data- attributes and
// its cells' text, read from the DOM (a <br> read as a space; sections are
// content-visibility: auto, so innerText can be ""). Self-contained, as
// Playwright runs it in the page.
const readTable = (t) => [...t.tBodies[0].rows].map((tr) => ({
  ...tr.dataset,
  cells: [...tr.cells].map((td) => {
    const text = (n) => (n.nodeType === Node.TEXT_NODE ? n.data
      : n.nodeName === 'BR' ? ' ' : [...n.childNodes].map(text).join(''));
    return text(td).replace(/\s+/g, ' ').trim();
  }),
}));

// What each cell must say for the CLI's figures of one column chunk.
function expectedCells(g, c) {
  const b = c.bloom_filter;
  const head = [String(g.row_group), `${c.path} ${c.physical_type}`, thousands(c.num_values),
    c.distinct_count === null ? 'not given' : thousands(c.distinct_count)];
  if (!b) return [...head, 'none', 'no Bloom filter', '–', '–', '–'];
  const s = b.writers_sizing;
  const round = (n) => thousands(Math.round(n));
  return [...head, `${count(b.bytes, 'byte')} ${count(b.blocks, 'block')}`,
    `${percent(b.fill, 1)} full planned ${percent(s.fill, 1)} in ${thousands(s.bytes)} bytes`,
    `${round(b.estimated_distinct)} ${round(b.estimated_distinct_low)} to ${round(b.estimated_distinct_high)}`,
    percentSig(b.fpr_at_fill), `${b.verdict} ${b.verdict_text}`];
}

// Waits for the page's report on the file `name`, then checks it against
// the CLI's on the file at `path`.
async function expectReport(page, name, path) {
  await expect(page.locator(`#parquet-out[data-done][data-file="${name}"]`)).toHaveCount(1, { timeout: 30_000 });
  const report = cli(['parquet', path]).files[0];
  const rows = await page.locator('#parquet-table').evaluate(readTable);
  const want = report.row_groups.flatMap((g) => g.columns.map((c) => ({ g, c })));
  expect(rows.length).toBe(want.length);
  want.forEach(({ g, c }, i) => {
    expect(rows[i].column).toBe(c.path);
    expect(rows[i].cells, `${name} row group ${g.row_group} ${c.path}`).toEqual(expectedCells(g, c));
    if (c.bloom_filter) expect(rows[i].verdict).toBe(c.bloom_filter.verdict);
  });
  const s = report.summary;
  await expect(page.locator('#parquet-summary')).toContainText(
    `${count(report.num_rows, 'row')} in ${count(s.row_groups, 'row group')}, written by ${report.created_by}.`);
  await expect(page.locator('#parquet-summary')).toContainText(
    `${count(s.filters, 'filter')} of ${thousands(s.filter_bytes)} bytes in all: ${thousands(s.about_right)} about right, ` +
    `${thousands(s.oversized)} oversized, ${thousands(s.too_full)} too full.`);
  return report;
}

// Drops the file at `path` on the drop zone, as a browser's drag and drop does.
async function drop(page, path, name) {
  const data = [...readFileSync(path)];
  const transfer = await page.evaluateHandle(({ bytes, fileName }) => {
    const t = new DataTransfer();
    t.items.add(new File([new Uint8Array(bytes)], fileName));
    return t;
  }, { bytes: data, fileName: name });
  await page.locator('#parquet-drop').dispatchEvent('drop', { dataTransfer: transfer });
}

// `bloomlab parquet FILE --column C --probe V --json` (exit 1 when a filter rules V out).
function cliProbe(path, column, value) {
  const r = spawnSync(bloomlab, ['parquet', path, '--column', column, '--probe', value, '--json'], { encoding: 'utf8' });
  expect([0, 1]).toContain(r.status);
  return JSON.parse(r.stdout).files[0].row_groups.map((g) => g.columns.find((c) => c.path === column).probes[0]);
}

async function expectProbe(page, path, column, value) {
  await page.locator('#parquet-column').selectOption(column);
  await page.locator('#parquet-probe').fill(value);
  await expect(page.locator(`#parquet-out[data-probed="${column}=${value}"]`)).toHaveCount(1);
  const answers = await page.locator('#parquet-answers li[data-answer]').evaluateAll((lis) => lis.map((li) => li.dataset.answer));
  const want = cliProbe(path, column, value);
  expect(answers, `${column} = ${value}`).toEqual(want);
  await expect(page.locator('#parquet-ruled-out')).toHaveText(
    `${value} is ruled out in ${want.filter((a) => a === 'no').length} of ${count(want.length, 'row group')}.`);
  return want;
}

test('the sample, and a dropped DuckDB file: every figure is `bloomlab parquet`\'s, oversized and about right', async ({ page }) => {
  await open(page, '/#parquet');
  await expect(page.locator('#parquet')).toContainText('nothing is uploaded or sent anywhere');
  const sample = await expectReport(page, 'sample.parquet', 'web/sample.parquet');
  expect(sample.summary.oversized).toBeGreaterThan(0);
  expect(sample.summary.about_right).toBeGreaterThan(0);
  const path = join(dir, 'oversized.parquet');
  await drop(page, path, 'oversized.parquet');
  const r = await expectReport(page, 'oversized.parquet', path);
  // DuckDB's filter for 300 values at a rate of 1e-9: 8 times the 1% sizing.
  const id = r.row_groups[0].columns.find((c) => c.path === 'id').bloom_filter;
  expect(id.verdict).toBe('oversized');
  expect(id.ratio).toBe(8);
  await expect(page.locator('#parquet-table tr[data-column="id"] .verdict')).toHaveText('oversized');
  await expect(page.locator('#parquet-table tr[data-column="s"] .verdict')).toHaveText('about right');
  // A DOUBLE column's probes: a member and a value never written.
  expect(await expectProbe(page, path, 'd', '2.5')).toEqual(['maybe']);
  await expectProbe(page, path, 'd', '1000.25');
});

test('a picked file of two row groups: its figures, probes as the CLI answers, refusals beside their inputs', async ({ page }) => {
  await open(page, '/#parquet');
  await expect(page.locator('#parquet-out[data-done][data-file="sample.parquet"]')).toHaveCount(1, { timeout: 30_000 });
  const path = join(dir, 'mixed.parquet');
  await page.locator('#parquet-file').setInputFiles(path);
  await expectReport(page, 'mixed.parquet', path);
  expect(await expectProbe(page, path, 'name', 'k7')).toEqual(['maybe', 'maybe']);
  expect(await expectProbe(page, path, 'name', 'k250')).toEqual(['no', 'no']);
  for (const v of ['5', '699', '12345', '-3']) await expectProbe(page, path, 'id', v);
  // A value an INT64 column cannot hold: the engine's words, beside the box.
  await page.locator('#parquet-probe').fill('k7');
  await expect(page.locator('#parquet-probe-error')).toContainText("Value: 'k7' is not a value of INT64 column id of mixed.parquet; allowed: a whole number");
  await expect(page.locator('#parquet-probe')).toHaveAttribute('aria-invalid', 'true');
  // Not a Parquet file: refused beside the drop zone, the last report kept.
  await drop(page, join(dir, 'notes.parquet'), 'notes.parquet');
  await expect(page.locator('#parquet-file-error')).toContainText('notes.parquet: not a Parquet file: it does not start with "PAR1"');
  await expect(page.locator('#parquet-out')).toHaveAttribute('data-file', 'mixed.parquet');
});

for (const width of [1280, 390]) {
  test(`at ${width} px the section fits without sideways scrolling, and axe finds nothing in it`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await open(page, '/#parquet');
    await expect(page.locator('#parquet-out[data-done][data-file="sample.parquet"]')).toHaveCount(1, { timeout: 30_000 });
    await page.locator('#parquet-probe').fill('1000');
    await expect(page.locator('#parquet-out[data-probed="customer_id=1000"]')).toHaveCount(1);
    await page.locator('#parquet-table').scrollIntoViewIfNeeded();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    const wrap = await page.locator('#parquet .table-wrap').evaluate((w) => ({ scroll: w.scrollWidth, client: w.clientWidth }));
    expect(wrap.scroll).toBeLessThanOrEqual(wrap.client + 1);
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => await window.axe.run('#parquet', { resultTypes: ['violations'] }));
    expect(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
