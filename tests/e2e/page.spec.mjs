import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { readFileSync } from 'node:fs';

test('a URL with parameters restores each section', async ({ page }) => {
  await open(page, '/?st_m=48&st_k=4&ms_m=1000&ms_k=3&ms_scheme=double&tu_mode=n_m&tu_n=5000&tu_m=60000&wk_m=36&wk_step=12');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(48);
  await expect(page.locator('#stage-k')).toHaveValue('4');
  await expect(page.locator('#measure-m')).toHaveValue('1000');
  await expect(page.locator('#measure-scheme')).toHaveValue('double');
  await expect(page.locator('#measure-summary')).toContainText('of 1,000 bits are 1');
  await expect(page.locator('input[name="mode"][value="n_m"]')).toBeChecked();
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', '60000');
  await expect(page.locator('#walk-out')).toContainText('gcd(12, 36) = 12');
  // Changing an input writes it back to the URL.
  await page.fill('#measure-k', '5');
  await expect(page).toHaveURL(/ms_k=5/);
});

test('the page loads with no request leaving 127.0.0.1 and no console errors', async ({ page }) => {
  const errors = [];
  const foreign = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1') foreign.push(req.url());
  });
  await open(page, '/');
  await expect(page.locator('body.ready')).toHaveCount(1);
  await page.locator('#schemes').scrollIntoViewIfNeeded();
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 30_000 });
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test('axe finds no serious or critical accessibility violations', async ({ page }) => {
  await open(page, '/');
  await expect(page.locator('body.ready')).toHaveCount(1);
  await page.addScriptTag({ content: readFileSync('node_modules/axe-core/axe.min.js', 'utf8') });
  const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});

test('a phone-sized screen needs no sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/');
  await expect(page.locator('body.ready')).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('when WebAssembly cannot load, the page says so instead of showing blanks', async ({ page }) => {
  await page.route('**/bloomlab.wasm', (route) => route.abort());
  await page.goto('/');
  await expect(page.locator('#load-error')).toBeVisible();
  await expect(page.locator('#load-error')).toContainText('could not be loaded');
});
