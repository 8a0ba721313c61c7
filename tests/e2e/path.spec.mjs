// The page as a path: the basics first and short, each "Try this" step
// landing as it says, and every section readable on a phone.
// - Find a false positive: the engine's word was never added, and every one
//   of its positions (as `bloomlab positions` gives them) is a bit an added
//   item set, so the filter says maybe.
// - The k trade-off on the default list: k = 1 and k = 30 each let through
//   more probes than the best k, by far more than the binomial spread.
// - Filling every bit, even at m = 256 with one hash, ends in a full filter
//   and the sentence that it says maybe to everything.
// - At 390 px no table or section scrolls sideways; no sentence of visible
//   prose runs past 30 words; the basics' prose is under 1,500 words.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli, thousands } from './cli.mjs';

const fruit = ['mango', 'banana', 'apple', 'cherry', 'grape'];

test('"Find a false positive" names a word never added that the filter says maybe to', async ({ page }) => {
  await open(page, '/');
  const items = await page.locator('#stage-items li[data-item] strong').allTextContents();
  await page.click('#stage-find');
  await expect(page.locator('#stage-found')).toContainText('was never added, yet all 3 of its bits are 1');
  const word = (await page.locator('#stage-found').textContent()).split(' ')[0];
  expect(items).not.toContain(word);
  // It is the first lookup now, marked as a wrong maybe.
  const first = page.locator('#stage-queries li[data-query="0"]');
  await expect(first).toContainText(word);
  await expect(first).toHaveClass(/false-positive/);
  // The CLI's positions: each of the word's bits is one an added item set.
  const set = new Set(cli(['positions', '--m', '32', '--k', '3', ...items]).flatMap((e) => e.positions));
  const mine = cli(['positions', '--m', '32', '--k', '3', word])[0].positions;
  for (const p of mine) expect(set.has(p), `bit ${p}`).toBe(true);
  // In an empty filter nothing reads maybe, and the page says so.
  await page.fill('#stage-k', '2');
  for (const w of items) {
    await page.fill('#stage-word', w);
    await page.click('#stage-remove');
  }
  await page.click('#stage-find');
  await expect(page.locator('#stage-found')).toContainText('reads maybe here. Add more items');
});

test('more hashes fill the same five fruit faster', async ({ page }) => {
  await open(page, '/');
  const on = [];
  for (const k of ['1', '3', '6', '10']) {
    await page.fill('#stage-k', k);
    await expect(page.locator('#stage-summary')).toContainText(`with ${k} ${k === '1' ? 'hash' : 'hashes'} each`);
    on.push(await page.locator('#stage-bits .bit.on').count());
  }
  const want = ['1', '3', '6', '10'].map((k) => new Set(cli(['positions', '--m', '32', '--k', k, ...fruit]).flatMap((e) => e.positions)).size);
  expect(on).toEqual(want);
  for (let i = 1; i < on.length; i++) expect(on[i]).toBeGreaterThan(on[i - 1]);
});

test('filling every bit at m = 256, k = 1 ends in a full filter that says maybe to everything', async ({ page }) => {
  await open(page, '/');
  await page.fill('#stage-m', '256');
  await page.fill('#stage-k', '1');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(256);
  await page.click('#stage-fill');
  await expect(page.locator('#stage-summary')).toContainText('of the 256 bits (100.0%)');
  await expect(page.locator('#stage-found')).toHaveText('All 256 bits are 1. This filter now says maybe to every word, added or not.');
  await expect(page.locator('#stage-word-error')).toBeEmpty();
  // A word never added now reads maybe.
  await page.fill('#stage-word', 'never-added-word');
  await page.click('#stage-look');
  await expect(page.locator('#stage-queries li[data-query="0"]')).toHaveClass(/false-positive/);
});

test('the k trade-off shows on the default list: one hash and thirty both lose to the best k', async ({ page }) => {
  await open(page, '/');
  const box = page.locator('#measure-versus');
  await expect(box).toHaveAttribute('data-fp30', /\d+/, { timeout: 60_000 });
  const [fp1, fpBest, fp30, kBest] = await Promise.all(['data-fp1', 'data-fp-best', 'data-fp30', 'data-k-best'].map((a) => box.getAttribute(a).then(Number)));
  // The best k is a whole number beside (m/n)·ln 2 as the CLI gives it.
  const n = Number((await page.locator('#measure-summary').textContent()).match(/Added (\d+) items/)[1]);
  const { k_optimal: best } = cli(['analyze', '--m', '2000', '--n', String(n), '--k', '7']);
  expect([Math.floor(best), Math.ceil(best)]).toContain(kBest);
  // Each loser's count is above the best's by more than 4 standard
  // deviations of the difference of two binomial counts.
  for (const worse of [fp1, fp30]) expect(worse - fpBest).toBeGreaterThan(4 * Math.sqrt(worse + fpBest));
  await expect(page.locator('#measure-versus-best')).toHaveText(`best k = ${kBest}`);
  await expect(page.locator('#measure-versus-status')).toContainText(`${thousands(fpBest)} with k = ${kBest}`);
  // No formula or exact cell reads 0.00% beside a measured count above 0.
  const rows = await page.$$eval('#measure-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  for (const [, measured, formula, exact] of rows) {
    if (!measured.endsWith('(0)')) {
      expect(formula).not.toBe('0.00%');
      expect(exact).not.toBe('0.00%');
    }
  }
});

// Every section drawn, so its tables and sentences are the ones a reader sees.
async function allDrawn(page) {
  for (const id of await page.locator('main > section').evaluateAll((s) => s.map((x) => x.id))) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  }
  await expect(page.locator('#schemes-small-table tbody tr')).toHaveCount(6, { timeout: 90_000 });
  await expect(page.locator('#which-table tbody tr')).toHaveCount(14, { timeout: 90_000 });
  await expect(page.locator('#drill-table tbody tr')).toHaveCount(3, { timeout: 90_000 });
  await expect(page.locator('#parquet-out[data-done]')).toHaveCount(1, { timeout: 90_000 });
  await expect(page.locator('#database-table tbody tr')).toHaveCount(2, { timeout: 90_000 });
  await expect(page.locator('#measure-versus')).toHaveAttribute('data-fp30', /\d+/, { timeout: 60_000 });
}

test('at 390 px no table and no section scrolls sideways', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/');
  await allDrawn(page);
  const wide = await page.evaluate(() => {
    const out = [];
    for (const s of document.querySelectorAll('main > section')) {
      if (s.scrollWidth > s.clientWidth) out.push(`${s.id}: ${s.scrollWidth} in ${s.clientWidth}`);
      for (const el of s.querySelectorAll('table, .table-wrap, .chart, .controls, .bits, .counters, .buckets, .attack-cells')) {
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${s.id} ${el.id || el.className}: ${el.scrollWidth} in ${el.clientWidth}`);
        const box = el.getBoundingClientRect();
        if (box.right > s.getBoundingClientRect().right + 1) out.push(`${s.id} ${el.id || el.className} ends at ${box.right}`);
      }
    }
    return out;
  });
  expect(wide).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // "Which filter?" stays a table: the kind, bits an item and a chosen column.
  const visible = () => page.locator('#which-table thead th').evaluateAll((ths) => ths.filter((th) => th.checkVisibility()).map((th) => th.textContent));
  expect(await visible()).toEqual(['Kind', 'Bits per item', 'Measured rate (95% interval)']);
  await page.selectOption('#which-col', '7');
  expect(await visible()).toEqual(['Kind', 'Bits per item', 'Lookup, ns']);
  expect(await page.locator('#which-table tbody tr').first().evaluate((tr) => getComputedStyle(tr).display)).toBe('table-row');
});

test('touch screens get touch hints, not keyboard hints', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await open(page, '/');
  expect(await page.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true);
  await expect(page.locator('#stage-bits-keys .touch-hint')).toBeVisible();
  await expect(page.locator('#stage-bits-keys .keys-hint')).toBeHidden();
  await context.close();
  const desk = await browser.newPage();
  await open(desk, '/');
  await expect(desk.locator('#stage-bits-keys .keys-hint')).toBeVisible();
  await expect(desk.locator('#stage-bits-keys .touch-hint')).toBeHidden();
  await desk.close();
});

test('no sentence of visible prose runs past 30 words; the basics come first, under 1,500 words, then "Going deeper"', async ({ page }) => {
  test.setTimeout(240_000);
  await open(page, '/');
  await allDrawn(page);
  const r = await page.evaluate(() => {
    for (const d of document.querySelectorAll('details')) d.open = true;
    const words = (t) => t.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
    // Sentences end with . ! or ? before a space and a capital, digit or quote.
    const sentences = (t) => t.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s+(?=[A-Z0-9"'(“])/);
    const prose = (root) => [...root.querySelectorAll('p, li, summary, dd, figcaption, caption')]
      .filter((e) => e.checkVisibility() && !e.closest('.item-list, .query-list, .chips') && !e.querySelector('p, li'));
    const long = [];
    let basics = 0;
    const order = [...document.querySelectorAll('main > section, main > .part-mark')].map((e) => e.id);
    for (const s of document.querySelectorAll('.masthead, main > section, main > .part-mark')) {
      for (const e of prose(s)) {
        const t = e.textContent;
        if (['why', 'stage', 'measure', 'tune', 'removal', 'questions'].includes(s.id) && !e.closest('form, table, .hint, .error')) basics += words(t);
        for (const x of sentences(t)) if (words(x) > 30) long.push(`${s.id || 'masthead'}: ${x}`);
      }
    }
    return { long, basics, order };
  });
  expect(r.long).toEqual([]);
  expect(r.basics).toBeLessThan(1500);
  expect(r.order).toEqual(['basics', 'why', 'stage', 'measure', 'tune', 'removal', 'questions', 'deeper',
    'schemes', 'cuckoo', 'combine', 'growing', 'sizes', 'database', 'attack', 'which', 'parquet']);
  // Each deeper section opens with why it matters.
  for (const id of r.order.slice(r.order.indexOf('deeper') + 1)) {
    await expect(page.locator(`#${id} > h2 + p.why-matters`), id).toContainText('Why it matters:');
  }
});

test('a chart legend never shows a label without a value, even where exact values are left out', async ({ page }) => {
  await open(page, '/?tu_mode=n_m&tu_n=1000000&tu_m=1e9');
  await expect(page.locator('#tune-exact-note')).toContainText(/drawn through \d+ of the \d+ points/);
  for (const id of ['#tune-chart-n', '#tune-chart-k', '#tune-chart-m', '#measure-chart']) {
    const values = await page.locator(`${id} .u-legend .u-series .u-value`).allTextContents();
    expect(values.length, id).toBeGreaterThan(1);
    for (const v of values) expect(v.trim(), id).not.toBe('');
  }
  // Here the k chart's last point has no exact value: its legend says so.
  await expect(page.locator('#tune-chart-k .u-legend .u-series').nth(2)).toHaveText('exact (dashed)not drawn');
});
