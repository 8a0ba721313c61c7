import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { readFileSync } from 'node:fs';
import { cli, pct, pctFine, thousands } from './cli.mjs';

// The page starts with the first 150 lines of the sample, leaving room
// under its 200-line limit.
const sample = readFileSync('data/sample.txt', 'utf8').split('\n').slice(0, 150).join('\n') + '\n';

test('measuring the sample list shows what bloomlab measure --json gives', async ({ page }) => {
  for (const [m, k, hash, scheme] of [['2000', '7', 'murmur3', 'enhanced'], ['1500', '4', 'fnv1a', 'double']]) {
    await open(page, `/?ms_m=${m}&ms_k=${k}&ms_hash=${hash}&ms_scheme=${scheme}`);
    const want = cli(['measure', '-', '--m', m, '--k', k, '--hash', hash, '--scheme', scheme], sample);
    const summary = page.locator('#measure-summary');
    await expect(summary).toContainText(`Added ${want.n} items: ${thousands(want.bits_set)} of ${thousands(want.m)} bits are 1 (${pct(want.fill, 1)}).`);
    await expect(summary).toContainText(`Looked up ${thousands(want.probes)} strings never added: ${thousands(want.false_positives)} said maybe, ${pct(want.fpr_measured)}.`);
    await expect(summary).toContainText(`The formula says ${pct(want.fpr_approx)}; the exact value is ${pct(want.fpr_exact)}.`);
    const rows = await page.$$eval('#measure-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    expect(rows).toEqual(want.rows.map((r) => [thousands(r.n), `${pctFine(r.fpr_measured)} (${thousands(r.false_positives)})`, pctFine(r.fpr_approx), pctFine(r.fpr_exact)]));
    const chips = await page.$$eval('#measure-fps .chip', (bs) => bs.map((b) => b.textContent));
    expect(chips).toEqual(want.false_positive_probes);
    // Timing, reported and never asserted: the first call includes the
    // engine's warm-up; re-measuring (as a slider does) shows the steady cost.
    const first = await page.getAttribute('#measure-out', 'data-ms');
    const again = [];
    for (let i = 0; i < 5; i++) {
      const runs = +(await page.getAttribute('#measure-out', 'data-runs'));
      await page.fill('#measure-k', i % 2 ? k : String(+k + 1));
      await expect(page.locator('#measure-out')).toHaveAttribute('data-runs', String(runs + 1));
      again.push(+(await page.getAttribute('#measure-out', 'data-ms')));
    }
    console.log(`measure in the browser, ${want.n} items x ${want.probes} probes, m=${m} ${hash}/${scheme}: ` +
      `first ${first} ms, then ${again.join(', ')} ms`);
  }
});

// The Hash menu's 128-bit MurmurHash3 (h1 and h2 the two halves of one
// MurmurHash3_x64_128 call) is the engine's, as `--hash murmur128` is: its
// figures are the CLI's, and not those of the 32-bit one.
test('MurmurHash3 128-bit from the Hash menu gives what bloomlab measure --hash murmur128 gives', async ({ page }) => {
  await open(page, '/');
  const want = cli(['measure', '-', '--m', '2000', '--k', '7', '--hash', 'murmur128'], sample);
  const other = cli(['measure', '-', '--m', '2000', '--k', '7', '--hash', 'murmur3'], sample);
  expect([want.bits_set, want.false_positives]).not.toEqual([other.bits_set, other.false_positives]);
  await page.selectOption('#measure-hash', 'murmur128');
  const summary = page.locator('#measure-summary');
  await expect(summary).toContainText(`Added ${want.n} items: ${thousands(want.bits_set)} of ${thousands(want.m)} bits are 1 (${pct(want.fill, 1)}).`);
  await expect(summary).toContainText(`Looked up ${thousands(want.probes)} strings never added: ${thousands(want.false_positives)} said maybe, ${pct(want.fpr_measured)}.`);
  const chips = await page.$$eval('#measure-fps .chip', (bs) => bs.map((b) => b.textContent));
  expect(chips).toEqual(want.false_positive_probes);
  await expect(page).toHaveURL(/[?&]ms_hash=murmur128\b/);
});

test('choosing a false positive shows which items lit each of its bits', async ({ page }) => {
  await open(page, '/');
  const first = page.locator('#measure-fps .chip').first();
  const probe = await first.textContent();
  await first.click();
  const want = cli(['positions', '--m', '2000', '--k', '7', probe])[0].positions;
  const lines = page.locator('#measure-why li');
  await expect(lines).toHaveCount(want.length);
  for (let i = 0; i < want.length; i++) await expect(lines.nth(i)).toContainText(`bit ${want[i]}: set by `);
});

test('201 lines or 20,001 characters show the limit and keep the text', async ({ page }) => {
  await open(page, '/');
  const lines = Array.from({ length: 201 }, (_, i) => `word-${i + 1}`).join('\n');
  await page.fill('#measure-list', lines);
  await expect(page.locator('#measure-list-error')).toContainText('201 lines');
  await expect(page.locator('#measure-list-error')).toContainText('only the first 200 lines are used');
  await expect(page.locator('#measure-list')).toHaveValue(lines);
  await expect(page.locator('#measure-summary')).toContainText('Added 200 items');

  const long = 'x'.repeat(19990) + '\n' + 'y'.repeat(10);
  expect(long.length).toBe(20001);
  await page.fill('#measure-list', long);
  await expect(page.locator('#measure-list-error')).toContainText('20,001 characters');
  await expect(page.locator('#measure-list')).toHaveValue(long);
  await expect(page.locator('#measure-summary')).toContainText('Added 1 item:');
});

test('bad m is refused beside the input, naming the value and the range', async ({ page }) => {
  await open(page, '/');
  await page.fill('#measure-m', '0');
  await expect(page.locator('#measure-m-error')).toContainText("'0'");
  await expect(page.locator('#measure-m-error')).toContainText('1 to 4294967296');
  await expect(page.locator('#measure-m')).toHaveValue('0');
  await page.fill('#measure-m', 'lots');
  await expect(page.locator('#measure-m-error')).toContainText("'lots'");
});

test('k = 1 beside the best k and k = 30 on the same list and m: fills and rates as bloomlab measure gives them', async ({ page }) => {
  await open(page, '/?ms_m=1500');
  const table = page.locator('#measure-versus');
  await expect(table).toHaveAttribute('data-k-best', /\d+/);
  const kBest = await table.getAttribute('data-k-best');
  for (const [col, k] of [[1, '1'], [2, kBest], [3, '30']]) {
    const want = cli(['measure', '-', '--m', '1500', '--k', k], sample);
    const a = cli(['analyze', '--m', '1500', '--n', String(want.n), '--k', k]);
    const cell = (row) => table.locator(`tbody tr:nth-child(${row}) td:nth-child(${col + 1})`);
    await expect(cell(1)).toHaveText(`${thousands(want.bits_set)} of 1,500 (${pct(want.fill, 1)})`);
    await expect(cell(2)).toHaveText(pct(a.fill_expected, 1));
    await expect(cell(3)).toHaveText(`${thousands(want.false_positives)} of ${thousands(want.probes)}`);
    await expect(cell(4)).toHaveText(pctFine(want.fpr_measured));
    await expect(cell(5)).toHaveText(pctFine(want.fpr_approx));
    await expect(cell(6)).toHaveText(pctFine(want.fpr_exact));
  }
  // A new list is measured again, both ways.
  await page.fill('#measure-list', Array.from({ length: 50 }, (_, i) => `w${i}`).join('\n'));
  const want30 = cli(['measure', '-', '--m', '1500', '--k', '30'], Array.from({ length: 50 }, (_, i) => `w${i}`).join('\n') + '\n');
  await expect(page.locator('#measure-versus')).toHaveAttribute('data-fp30', String(want30.false_positives));
  await expect(table.locator('tbody tr:nth-child(1) td:nth-child(4)')).toHaveText(`${thousands(want30.bits_set)} of 1,500 (${pct(want30.fill, 1)})`);
});

test('the sample leaves room under the limit; a list of your own is kept in the link, packed', async ({ page, context }) => {
  await open(page, '/');
  await expect(page.locator('#measure-list-count')).toContainText('150 of 200 lines');
  const mine = ['kiwi', 'plum', 'https://example.org/a?b=1&c=2', 'naïve café', ...Array.from({ length: 40 }, (_, i) => `word-${i}`)].join('\n') + '\n';
  await page.fill('#measure-list', mine);
  await expect(page.locator('#measure-list-link')).toContainText('kept in the link');
  const url = page.url();
  expect(url).toContain('ms_list=');
  expect(new URL(url).searchParams.get('ms_list').length).toBeLessThan(mine.length);
  // A new tab with that link measures the same list, as the CLI does.
  const other = await context.newPage();
  await open(other, url);
  await expect(other.locator('#measure-list')).toHaveValue(mine);
  const want = cli(['measure', '-', '--m', '2000', '--k', '7'], mine);
  await expect(other.locator('#measure-summary')).toContainText(`Added ${want.n} items: ${thousands(want.bits_set)} of 2,000 bits are 1`);
  await expect(other.locator('#measure-summary')).toContainText(`${thousands(want.false_positives)} said maybe, ${pct(want.fpr_measured)}`);
  // Back to the sample: the link drops the list.
  await other.fill('#measure-list', sample);
  await expect(other.locator('#measure-list-link')).toBeEmpty();
  // The note is also empty before the link's own list has been packed, so it
  // can read empty before the sample is measured (debounced), which is when
  // the link drops the list: the URL is read again until then.
  await expect.poll(() => other.url()).not.toContain('ms_list=');
});

test('a list too long for the link is measured but left out of it, and a bad link value is refused', async ({ page }) => {
  await open(page, '/');
  // 190 lines of letters that do not repeat: they pack to more than the link keeps.
  let x = 12345;
  const noise = Array.from({ length: 190 }, () => Array.from({ length: 90 }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return String.fromCharCode(97 + (x >> 16) % 26);
  }).join('')).join('\n');
  await page.fill('#measure-list', noise);
  await expect(page.locator('#measure-list-link')).toContainText('too long to keep in the link');
  await expect(page.locator('#measure-list-link')).toContainText('up to 6,000');
  await expect(page.locator('#measure-summary')).toContainText('Added 190 items');
  expect(page.url()).not.toContain('ms_list=');
  await open(page, '/?ms_list=not*packed');
  await expect(page.locator('#measure-list-url')).toContainText('Your list in the link could not be read');
  await expect(page.locator('#measure-list-count')).toContainText('150 of 200 lines');
  await open(page, '/?ms_list=AAAA');
  await expect(page.locator('#measure-list-url')).toContainText('could not be unpacked');
});
