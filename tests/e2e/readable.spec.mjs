// Readable everywhere: at 1280 and 390 pixels, by mouse and by keyboard.
// axe-core finds no violations of any impact; the section 4 tables fit (a
// card a row on a phone) and a table that still scrolls says so and takes
// the focus; section 1's bits are one Tab stop; charts show values without
// a hover and name their line styles; live regions are short sentences.
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli } from './cli.mjs';

const axeSource = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

// The trials of section 4 finished, so its tables are full.
async function trialsDone(page) {
  await page.locator('#schemes').scrollIntoViewIfNeeded();
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 90_000 });
  await expect(page.locator('#schemes-small-table tbody tr')).toHaveCount(6, { timeout: 90_000 });
  // Section 12's table and drill, measured in the worker once in view.
  await page.locator('#which').scrollIntoViewIfNeeded();
  await expect(page.locator('#which-table tbody tr')).toHaveCount(14, { timeout: 90_000 });
  await expect(page.locator('#drill-table tbody tr')).toHaveCount(3, { timeout: 90_000 });
  // Section 13's sample file, read once the section comes near the screen.
  await page.locator('#parquet').scrollIntoViewIfNeeded();
  await expect(page.locator('#parquet-out[data-done]')).toHaveCount(1, { timeout: 90_000 });
}

for (const width of [1280, 390]) {
  test(`axe finds no violations of any impact at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await open(page, '/');
    await trialsDone(page);
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ['violations'] }));
    const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
    expect(found).toEqual([]);
  });

  test(`every table fits its card or scrolls visibly and by keyboard at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await open(page, '/');
    await trialsDone(page);
    const wraps = await page.locator('.table-wrap').evaluateAll((els) => els.map((el) => ({
      id: el.querySelector('table')?.id,
      scrolls: el.scrollWidth > el.clientWidth + 1,
      tabindex: el.getAttribute('tabindex'),
      role: el.getAttribute('role'),
      hint: !!el.previousElementSibling?.classList.contains('scroll-hint'),
    })));
    expect(wraps.length).toBeGreaterThan(5);
    for (const w of wraps) {
      if (w.scrolls) expect(w, `${w.id} scrolls`).toMatchObject({ tabindex: '0', role: 'region', hint: true });
      else expect(w, `${w.id} fits`).toMatchObject({ tabindex: null, hint: false });
    }
    // Section 4's tables fit at both widths: on a phone a card a row, each
    // value named by its column.
    for (const id of ['schemes-table', 'schemes-small-table']) expect(wraps.find((w) => w.id === id).scrolls).toBe(false);
    if (width === 390) {
      const cell = page.locator('#schemes-table tbody tr').first().locator('td').nth(2);
      await expect(cell).toHaveAttribute('data-label', 'Measured (95% interval)');
      expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Measured (95% interval)"');
    }
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
}

test('a table wider than the screen scrolls by keyboard and says so', async ({ page }) => {
  // 320 px: section 2's table of four columns cannot fit (at 390 it does;
  // the wider tables become a card a row on a phone).
  await page.setViewportSize({ width: 320, height: 800 });
  await open(page, '/#measure');
  const wrap = page.locator('#measure-table').locator('xpath=..');
  await expect(wrap).toHaveAttribute('tabindex', '0');
  await expect(wrap).toHaveAttribute('role', 'region');
  await expect(wrap).toHaveAttribute('aria-label', 'Table, scrolls sideways');
  await expect(page.locator('#measure .scroll-hint')).toContainText('scroll it sideways');
  await wrap.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => wrap.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

test('section 1: the bits are one Tab stop, moved by arrow keys; items mark their bits by keyboard', async ({ page }) => {
  await open(page, '/');
  await expect(page.locator('#stage-bits .bit[tabindex="0"]')).toHaveCount(1);
  await expect(page.locator('#stage-bits .bit[tabindex="-1"]')).toHaveCount(31);
  // Tab from the buttons above lands on the grid once, then leaves it.
  await page.focus('#stage-reset');
  await page.keyboard.press('Tab');
  await expect(page.locator('#stage-bits .bit[data-bit="0"]')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#stage-bits .bit[data-bit="1"]')).toBeFocused();
  await expect(page.locator('#stage-bit-info')).toContainText(/^Bit 1 is /);
  // Down moves a row: 16 bits a row at this width.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('#stage-bits .bit[data-bit="17"]')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.locator('#stage-bits .bit[data-bit="31"]')).toBeFocused();
  // The focus ring is not the highlight: an outline outside for focus, an
  // inset ring for the highlight.
  const look = await page.locator('#stage-bits .bit[data-bit="31"]').evaluate((b) => {
    const cs = getComputedStyle(b);
    return { outline: cs.outlineStyle, width: cs.outlineWidth, shadow: cs.boxShadow, focus: b.classList.contains('focus') };
  });
  expect(look).toMatchObject({ outline: 'solid', width: '3px', focus: true });
  expect(look.shadow).toContain('inset');
  await page.keyboard.press('Tab');
  await expect(page.locator('#stage-items li[data-item="0"]')).toBeFocused();
  // Down to banana: its bits, as the engine gives them, are marked.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('#stage-items li[data-item="1"]')).toBeFocused();
  const want = cli(['positions', '--m', '32', '--k', '3', 'banana']);
  const positions = want[0].positions;
  await expect(page.locator('#stage-bit-info')).toHaveText(`banana set bits ${positions.slice(0, -1).join(', ')} and ${positions.at(-1)}, marked in the grid and joined to it by lines.`);
  const marked = await page.locator('#stage-bits .bit.focus').evaluateAll((bs) => bs.map((b) => +b.dataset.bit).sort((a, b) => a - b));
  expect(marked).toEqual([...new Set(positions)].sort((a, b) => a - b));
  await expect(page.locator('#stage-items li.lit')).toHaveCount(1);
  // The lookups are one more stop.
  await page.keyboard.press('Tab');
  await expect(page.locator('#stage-queries li[data-query="0"]')).toBeFocused();
});

test('a skip link is the first stop and leads to the lab', async ({ page }) => {
  await open(page, '/');
  await page.keyboard.press('Tab');
  await expect(page.locator('a.skip')).toBeFocused();
  await expect(page.locator('a.skip')).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});

test('charts show the latest values without a hover and name each line style', async ({ page }) => {
  await open(page, '/');
  const legend = page.locator('#tune-chart-n .u-legend');
  await expect(legend).toContainText('formula (wide band)');
  await expect(legend).toContainText('exact (dashed)');
  const values = await legend.locator('.u-value').allTextContents();
  expect(values.length).toBeGreaterThan(2);
  for (const v of values) expect(v).not.toBe('--');
  // The last value is the curve's last point, as the engine gives it.
  const last = await page.locator('#measure-table tbody tr').last().locator('td').nth(1).textContent();
  const measured = await page.locator('#measure-chart .u-legend .u-series').nth(1).locator('.u-value').textContent();
  expect(parseFloat(measured)).toBeCloseTo(parseFloat(last), 1);
});

test('live regions hold a short sentence, never a table', async ({ page }) => {
  await open(page, '/');
  const live = await page.locator('[aria-live]').evaluateAll((els) => els.map((el) => ({
    id: el.id, tables: el.querySelectorAll('table, dl, canvas').length, length: el.textContent.length,
  })));
  expect(live.length).toBeGreaterThan(8);
  for (const l of live) {
    expect(l.tables, l.id).toBe(0);
    expect(l.length, l.id).toBeLessThan(700);
  }
});
