import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli } from './cli.mjs';
import { domText } from './dom_text.mjs';

test('the seeded trials show what bloomlab trials gives', async ({ page }) => {
  await open(page, '/#schemes');
  await page.locator('#schemes').scrollIntoViewIfNeeded();
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 30_000 });
  const want = cli(['trials', '--m', '1021', '--n', '100', '--k', '7', '--filters', '200', '--probes', '2000', '--seed', '1', '--scheme', 'double']);
  const row = page.locator('#schemes-table tbody tr').nth(4);
  await expect(row).toContainText('plain double hashing');
  await expect(row).toContainText((want.fpr_mean * 100).toPrecision(3) + '%');
  await expect(page.locator('#schemes-small-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
  const small = cli(['analyze', '--m', '101', '--n', '10', '--k', '7', '--scheme', 'double']);
  await expect(page.locator('#schemes-small')).toContainText((small.fpr_exact_scheme * 100).toPrecision(3) + '%');
});

// The default inputs' trials are answered by the site's build (answers.js,
// answers.json): the same tables as the engine in the page computes them,
// which it does when that file cannot be read.
test('the trials answered ahead are the ones the page computes itself', async ({ page }) => {
  const tables = async () => {
    await page.locator('#schemes').scrollIntoViewIfNeeded();
    await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
    await expect(page.locator('#schemes-small-table tbody tr')).toHaveCount(6, { timeout: 90_000 });
    return [await page.locator('#schemes-table tbody').evaluate(domText),
      await page.locator('#schemes-small-table tbody').evaluate(domText), await page.locator('#schemes-small').evaluate(domText)];
  };
  const asked = [];
  page.on('request', (r) => { if (r.url().endsWith('/answers.json')) asked.push(r.url()); });
  await open(page, '/');
  const ahead = await tables();
  expect(ahead[0]).toContain('plain double hashing');
  expect(ahead[1]).toContain('101 bits, 10 keys');
  expect(ahead[2]).toContain('With 101 bits, 10 keys and k = 7');
  expect(asked).toHaveLength(1);
  await expect(page.locator('#schemes-progress')).toBeEmpty();
  await page.route('**/answers.json', (route) => route.abort());
  await open(page, '/');
  expect(await tables()).toEqual(ahead);
});

test('a step sharing a factor with m revisits bits', async ({ page }) => {
  await open(page, '/?wk_m=30&wk_k=8&wk_h1=4&wk_step=10');
  await expect(page.locator('#walk-out')).toContainText('4, 14, 24, 4, 14, 24, 4, 14');
  await expect(page.locator('#walk-out')).toContainText('3 distinct bits of 8');
  await page.fill('#walk-step', '0');
  await expect(page.locator('#walk-out')).toContainText('1 distinct bit of 8');
});
