// Section 1's first figures come with the page (web/build.mjs draws them
// with the engine for the default inputs): the view, once it runs, must draw
// exactly the same over them; and a link that asks for another filter must
// not show the default one's figures meanwhile.
import { test, expect } from './fixtures.mjs';

const parts = ['stage-bits', 'stage-removal', 'stage-items', 'stage-summary', 'stage-queries', 'stage-odds'];
const snapshot = (ids) => ids.map((id) => document.getElementById(id).outerHTML);

test('the figures in the page are the ones section 1 draws once its script runs', async ({ browser }) => {
  // Without scripts: what the page itself holds.
  const still = await browser.newContext({ javaScriptEnabled: false });
  const page0 = await still.newPage();
  await page0.goto('/');
  await expect(page0.locator('#stage')).toHaveAttribute('data-prerendered', '');
  await expect(page0.locator('#stage-bits .bit')).toHaveCount(32);
  await expect(page0.locator('#stage-bits .bit.on')).not.toHaveCount(0);
  await expect(page0.locator('#stage-items li')).toHaveCount(5);
  await expect(page0.locator('#stage-queries li')).toHaveCount(3);
  await expect(page0.locator('#stage-summary')).toContainText('5 items with 3 hashes each set');
  // The later sections, which a page running scripts reads as text until
  // its first paint (<noscript data-later>, web/build.mjs), show as written.
  await expect(page0.locator('#measure-form')).toBeVisible();
  const sections = await page0.locator('main > section').count();
  expect(sections).toBeGreaterThan(1);
  await expect(page0.locator('main > section > noscript[data-later]')).toHaveCount(sections - 1);
  await expect(page0.locator('#which noscript[data-later] table').first()).toBeVisible();
  const before = await page0.evaluate(snapshot, parts);
  await still.close();

  // With them: section 1 drawn by its view over the same, and the text of
  // its figures, read at every change, never other than at first.
  const page = await browser.newPage();
  await page.addInitScript(() => {
    window.__texts = new Set();
    new MutationObserver(() => {
      const board = document.querySelector('#stage .stage-board');
      if (board && document.getElementById('stage-odds')) window.__texts.add(board.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto('/');
  await page.locator('body.ready').waitFor();
  await expect(page.locator('#stage')).not.toHaveAttribute('data-prerendered');
  // The later sections are elements by now, none of them left as text.
  await expect(page.locator('noscript[data-later]')).toHaveCount(0);
  await expect(page.locator('#measure-form')).toBeVisible();
  const after = await page.evaluate(snapshot, parts);
  for (const [i, id] of parts.entries()) expect(after[i], id).toBe(before[i]);
  expect(await page.evaluate(() => window.__texts.size)).toBe(1);
  // And it works: a word added is drawn.
  await page.fill('#stage-word', 'kiwi');
  await page.click('#stage-add');
  await expect(page.locator('#stage-items li')).toHaveCount(6);
  await page.close();
});

test('a link with section 1\'s inputs hides the default figures until its own are drawn', async ({ page }) => {
  // With section 1's script held back, the page shows only what it holds.
  await page.route('**/boot.js', (route) => route.abort());
  await page.goto('/?st_m=64');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(32);
  await expect(page.locator('#stage .stage-board')).toBeHidden();
  await expect(page.locator('#stage-form')).toBeHidden();
  await expect(page.locator('#measure-form')).toBeVisible();
  await page.goto('/?ms_m=500');
  await expect(page.locator('#stage .stage-board')).toBeVisible();
  await page.unroute('**/boot.js');
  // With it, the link's filter replaces them and shows.
  await page.goto('/?st_m=64');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(64);
  await expect(page.locator('#stage .stage-board')).toBeVisible();
  await expect(page.locator('#stage-m')).toHaveValue('64');
  await expect(page.locator('html')).not.toHaveClass(/stage-stale/);
});

test('a link whose section 1 inputs are refused shows the refusal and no filter', async ({ page }) => {
  await page.goto('/?st_m=999');
  await page.locator('#stage[data-mounted]').waitFor();
  await expect(page.locator('#stage-m-error')).toBeVisible();
  await expect(page.locator('#stage-m-error')).toContainText("'999'");
  await expect(page.locator('#stage-bits .bit')).toHaveCount(0);
  await expect(page.locator('#stage-summary')).toBeEmpty();
  await expect(page.locator('#stage-queries li')).toHaveCount(0);
});
