// Saves a screenshot of each section of the page, at 1280 and at 390 pixels
// wide, under docs/screenshots/. Needs `bloomlab serve` running on the given
// address: node web/screenshots.mjs http://127.0.0.1:8080/
import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';

const base = process.argv[2] || 'http://127.0.0.1:8080/';
const out = 'docs/screenshots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
for (const [width, tag] of [[1280, 'wide'], [390, 'phone']]) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(base);
  await page.locator('body.ready').waitFor();
  await page.locator('#schemes').scrollIntoViewIfNeeded();
  await page.locator('#schemes-small-table tbody tr').nth(5).waitFor({ timeout: 120_000 });
  // Section 10 runs SQLite once it is in view.
  await page.locator('#database').scrollIntoViewIfNeeded();
  await page.locator('#database-out[data-requests]').waitFor({ timeout: 120_000 });
  // Section 11's realistic filter runs in the worker.
  await page.locator('#attack-keyed-text[data-done]').waitFor({ timeout: 120_000 });
  // Section 12 measures every kind, then its drill, in the worker once in view.
  await page.locator('#which').scrollIntoViewIfNeeded();
  await page.locator('#drill-table tbody tr').nth(2).waitFor({ timeout: 120_000 });
  // Section 13 shows the sample file's filters, read once it is near.
  await page.locator('#parquet').scrollIntoViewIfNeeded();
  await page.locator('#parquet-out[data-done]').waitFor({ timeout: 120_000 });
  for (const id of ['why', 'stage', 'measure', 'tune', 'removal', 'questions', 'schemes', 'cuckoo', 'combine', 'growing', 'sizes', 'database', 'attack', 'which', 'parquet']) {
    await page.locator(`#${id}`).screenshot({ path: `${out}/${id}-${tag}.png` });
  }
  if (tag === 'wide') await page.screenshot({ path: `${out}/page-${tag}.png`, fullPage: true });
  await page.close();
}
await browser.close();
console.log(`screenshots saved in ${out}/`);
