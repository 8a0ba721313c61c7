// Section 12, which filter?: the table the page fills in, one kind a call in
// its worker, shows the numbers `bloomlab which --json` gives for the same
// items (bits, bits per item, expected and measured rates and intervals,
// what each can do), for generated items and for section 2's list; bad
// input is refused beside its input; it reads at 390 px.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli } from './cli.mjs';
import { percentSig, thousands } from '../../web/js/format.js';

// A table's rows as the page shows them, with the table's data-measured:
// each row's data- attributes and its cells' text. Cells are read from the
// DOM (a <br> read as a space), not as innerText: the sections are
// content-visibility: auto, and Chromium gives "" as the innerText of a cell
// in a section it is not rendering at that moment. Self-contained, as
// Playwright runs it in the page.
const readTable = (t) => ({
  measured: t.dataset.measured,
  rows: [...t.tBodies[0].rows].map((tr) => ({
    ...tr.dataset,
    cells: [...tr.cells].map((td) => {
      const text = (n) => (n.nodeType === Node.TEXT_NODE ? n.data
        : n.nodeName === 'BR' ? ' ' : [...n.childNodes].map(text).join(''));
      return text(td).replace(/\s+/g, ' ').trim();
    }),
  })),
});

// The table of one finished request: the view sets data-measured to
// "items p probes" once its last row is in (and removes it when it starts
// again), so the rows are read in the same turn as that mark and read again
// until the mark names this report. Never a table still filling in.
async function measuredRows(page, report) {
  await page.locator('#which').scrollIntoViewIfNeeded();
  const want = `${report.items} ${report.p} ${report.probes}`;
  let rows;
  await expect(async () => {
    const table = await page.locator('#which-table').evaluate(readTable);
    expect(table.measured).toBe(want);
    rows = table.rows;
  }).toPass({ timeout: 60_000 });
  await expect(page.locator('#which-progress')).toHaveText('');
  return rows;
}

function can(row) {
  const words = [['add_later', 'add'], ['remove', 'delete'], ['merge', 'merge'], ['grow', 'grow']]
    .filter(([f]) => row[f]).map(([, w]) => w);
  return words.length ? words.join(', ') : 'nothing: built once';
}

async function expectTable(page, report) {
  const cells = await measuredRows(page, report);
  expect(cells.map((c) => c.kind)).toEqual(report.rows.map((r) => r.kind));
  report.rows.forEach((r, i) => {
    const [kind, bits, perItem, rate, expected, , , abilities] = cells[i].cells;
    expect(kind).toBe(r.kind);
    expect(bits, r.kind).toBe(thousands(r.bits));
    expect(perItem, r.kind).toBe(r.bits_per_item.toFixed(2));
    expect(rate, r.kind).toBe(`${percentSig(r.measured_fpr)} ${percentSig(r.fpr_low)} to ${percentSig(r.fpr_high)}`);
    expect(expected, r.kind).toBe(percentSig(r.expected_fpr));
    expect(abilities, r.kind).toBe(can(r));
  });
  await expect(page.locator('#which-summary')).toContainText(
    `${thousands(report.items)} distinct item${report.items === 1 ? '' : 's'} at a target rate of ${percentSig(report.p)}`);
  await expect(page.locator('#which-summary')).toContainText(`fewer than ${report.floor_bits_per_item.toFixed(2)} bits an item`);
  await expect(page.locator('#which-chart canvas')).toHaveCount(1);
}

test('generated items: every kind\'s row matches `bloomlab which`, the 8-bit kinds left out below 2^-8', async ({ page }) => {
  await open(page, '/?wh_n=3,000&wh_p=1%25&wh_probes=30,000#which');
  await expectTable(page, cli(['which', '--n', '3000', '--p', '1%', '--probes', '30000']));
  // A tighter rate: xor8 and fuse8 cannot meet it, fuse16 can.
  await page.locator('#which-p').fill('0.1%');
  const tight = cli(['which', '--n', '3000', '--p', '0.001', '--probes', '30000']);
  expect(tight.rows.map((r) => r.kind)).not.toContain('xor8');
  await expect(page.locator('#which-table tbody tr[data-kind="xor8"]')).toHaveCount(0, { timeout: 60_000 });
  await expectTable(page, tight);
  expect(page.url()).toContain('wh_p=0.1%25');
});

test('section 2\'s list: the rows match `bloomlab which --items` for the lines it uses', async ({ page }) => {
  await open(page, '/?wh_items=list&wh_probes=20,000#which');
  const lines = readFileSync('data/sample.txt', 'utf8').split('\n').slice(0, 150).join('\n') + '\n';
  const file = join(mkdtempSync(join(tmpdir(), 'which-')), 'list.txt');
  writeFileSync(file, lines);
  await expect(page.locator('#which-items')).toHaveValue('list');
  await expect(page.locator('#which-n')).toBeDisabled();
  await expectTable(page, cli(['which', '--items', file, '--p', '1%', '--probes', '20000']));
  // A new list in section 2 is measured here too.
  await page.locator('#measure-list').fill('alpha\nbeta\ngamma\n');
  const three = `${file}.3`;
  writeFileSync(three, 'alpha\nbeta\ngamma\n');
  await expect(page.locator('#which-summary')).toContainText('3 distinct items', { timeout: 60_000 });
  await expectTable(page, cli(['which', '--items', three, '--p', '1%', '--probes', '20000']));
});

test('bad input is refused beside its input, naming the label and the range; bad link values too', async ({ page }) => {
  await open(page, '/?wh_items=bogus&wh_n=abc#which');
  await page.locator('#which').scrollIntoViewIfNeeded();
  await expect(page.locator('#which-items-url')).toContainText("Items: 'bogus' in the link is not allowed; allowed: generated, list");
  await expect(page.locator('#which-n-error')).toContainText("Generated items, n: 'abc'", { timeout: 60_000 });
  await expect(page.locator('#which-n')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#which-out')).toHaveClass(/stale/);

  await page.locator('#which-n').fill('100,001');
  await expect(page.locator('#which-n-error')).toContainText('from 1 to 100000');
  await page.locator('#which-n').fill('2000');
  await page.locator('#which-p').fill('1e-10');
  await expect(page.locator('#which-p-error')).toContainText("Target rate: '1e-10' is too small here");
  await expect(page.locator('#which-n-error')).toHaveText('');
  await page.locator('#which-p').fill('2%');
  await page.locator('#which-probes').fill('0');
  await expect(page.locator('#which-probes-error')).toContainText("Probes never added: '0'");
  await expect(page.locator('#which-probes-error')).toContainText('from 1 to 1000000');
  await page.locator('#which-probes').fill('5000');
  await expect(page.locator('#which-table')).toHaveAttribute('data-measured', '2000 0.02 5000', { timeout: 60_000 });
  await expect(page.locator('#which-table tbody tr')).toHaveCount(14);
  await expect(page.locator('#which-out')).not.toHaveClass(/stale/);
});

test('at 390 px the table compares kinds in three columns, the third chosen, and the page never scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await open(page, '/?wh_n=1000&wh_probes=10000#which');
  await expect(page.locator('#which-table')).toHaveAttribute('data-measured', '1000 0.01 10000', { timeout: 60_000 });
  await expect(page.locator('#which-table tbody tr')).toHaveCount(14);
  // Every kind is a row of one table; each column shown has its heading.
  const shown = () => page.locator('#which-table tbody tr').first().locator('td').evaluateAll((tds) => tds.filter((td) => td.checkVisibility()).map((td) => td.cellIndex));
  expect(await shown()).toEqual([0, 2, 3]);
  await expect(page.locator('#which-table thead th').nth(3)).toBeVisible();
  for (const [col, heading] of [['8', 'Can, once built'], ['2', 'Bits']]) {
    await page.selectOption('#which-col', col);
    expect(await shown()).toEqual([0, 2, Number(col) - 1].sort((a, b) => a - b));
    await expect(page.locator('#which-table thead th').nth(Number(col) - 1)).toHaveText(heading);
  }
  const wrap = page.locator('#which-table').locator('xpath=..');
  expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // By keyboard: Tab reaches the section's inputs in order.
  await page.locator('#which-items').focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('#which-n')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('#which-p')).toBeFocused();
});

test('the drill: each problem\'s answers, wrong trials and why match `bloomlab drill`; bad numbers refused', async ({ page }) => {
  await open(page, '/?dr_m=48&dr_trials=2,000#which');
  await page.locator('#which').scrollIntoViewIfNeeded();
  await expect(page.locator('#drill-table tbody tr')).toHaveCount(3, { timeout: 60_000 });
  const want = cli(['drill', '--numbers', '100 4 200 1 3 2 7 11 15', '--target', '9', '--m', '48', '--k', '3', '--trials', '2000', '--seed', '1']);
  const { rows } = await page.locator('#drill-table').evaluate(readTable);
  expect(rows.map((r) => r.problem)).toEqual(['contains_duplicate', 'two_sum', 'longest_consecutive']);
  want.problems.forEach((d, i) => {
    const [, exact, filter, wrong, why] = rows[i].cells;
    expect(exact).toBe(d.exact.words);
    expect(filter).toBe(d.filter.words + (d.filter_wrong ? ' (wrong)' : ''));
    expect(wrong).toBe(`${thousands(d.wrong)} of 2,000 ${percentSig(d.wrong_rate)}: ${percentSig(d.wrong_low)} to ${percentSig(d.wrong_high)}`);
    expect(why).toBe(d.why ? `trial ${d.first_wrong_trial + 1}: ${d.why}` : 'never wrong in these trials');
  });
  // 48 bits for 9 numbers at k = 3: some trials go wrong, and say why.
  expect(want.problems.some((d) => d.wrong > 0)).toBe(true);

  await page.locator('#drill-numbers').fill('1 2 x');
  await expect(page.locator('#drill-numbers-error')).toContainText("Your numbers: 'x' is not a whole number");
  await expect(page.locator('#drill-out')).toHaveClass(/stale/);
  await page.locator('#drill-numbers').fill('1 2 3');
  await page.locator('#drill-k').fill('17');
  await expect(page.locator('#drill-k-error')).toContainText("Hashes, k: '17'");
  await expect(page.locator('#drill-numbers-error')).toHaveText('');
});
