// Never frozen, never blank: inputs that used to freeze the page, bad URL
// values, the stage's item limit and a failed worker. Each interaction is
// timed in the page (performance.now()) and reported, not asserted.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli } from './cli.mjs';

// Sets an input and fires the change the section listens to; returns the
// milliseconds the section took to answer (it answers synchronously).
async function timedChange(page, selector, value) {
  return page.evaluate(([sel, v]) => {
    const el = document.querySelector(sel);
    const t = performance.now();
    if (el.type === 'radio') el.checked = true;
    else el.value = v;
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return performance.now() - t;
  }, [selector, value]);
}

function report(info, what, ms) {
  info.annotations.push({ type: 'timing', description: `${what}: ${ms.toFixed(1)} ms` });
  console.log(`timing ${what}: ${ms.toFixed(1)} ms`);
}

function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  return errors;
}

test('section 3 answers tiny rates and huge m at once, with curves drawn', async ({ page }, info) => {
  const errors = watchErrors(page);
  await open(page, '/');
  for (const p of ['1e-7', '1e-9']) {
    const ms = await timedChange(page, '#tune-p', p);
    report(info, `tune n = 1,000,000, p = ${p}`, ms);
    const want = cli(['size', '--n', '1000000', '--p', p]);
    await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
    await expect(page.locator('#tune-out')).toHaveAttribute('data-k', String(want.k));
  }
  await timedChange(page, 'input[name="mode"][value="n_m"]');
  for (const m of ['40,000,000', '1e9']) {
    const ms = await timedChange(page, '#tune-m', m);
    report(info, `tune n = 1,000,000, m = ${m}`, ms);
    const plain = m.replace(/,/g, '');
    await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(Number(plain)));
    const want = cli(['analyze', '--m', String(Number(plain)), '--n', '1000000', '--k', await page.locator('#tune-out').getAttribute('data-k')]);
    const pct = want.fpr_approx * 100;
    await expect(page.locator('#tune-out')).toContainText(pct < 1e-4 ? pct.toExponential(3) + '%' : pct.toPrecision(4) + '%');
  }
  for (const id of ['#tune-chart-n', '#tune-chart-k', '#tune-chart-m']) await expect(page.locator(`${id} canvas`)).toHaveCount(1);
  // The m chart's rates fall far below what a log axis draws: it says so.
  await expect(page.locator('#tune-chart-m .chart-note')).toContainText('not drawn');
  // At k = 64 most exact values are left out, and the page says how many it drew.
  await expect(page.locator('#tune-exact-note')).toContainText(/drawn through \d+ of the \d+ points/);
  expect(errors).toEqual([]);
});

test('a tiny rate in the link loads the page at once', async ({ page }, info) => {
  const errors = watchErrors(page);
  const t = Date.now();
  await open(page, '/?tu_p=1e-9');
  report(info, 'load with tu_p=1e-9 (navigation to ready)', Date.now() - t);
  await expect(page.locator('#tune-p')).toHaveValue('1e-9');
  const want = cli(['size', '--n', '1000000', '--p', '1e-9']);
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
  expect(errors).toEqual([]);
});

test('bad values in the link fall back to their defaults, said beside the input, and every section draws', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page, '/?tu_mode=bogus&ms_hash=sha1&ms_scheme=%3Cb%3E');
  await expect(page.locator('input[name="mode"][value="n_p"]')).toBeChecked();
  await expect(page.locator('#tune-mode-url')).toContainText("'bogus' in the link is not allowed");
  await expect(page.locator('#tune-mode-url')).toContainText('n_p, n_p_k, n_m, n_m_k, m_p, m_p_k');
  await expect(page.locator('#measure-hash')).toHaveValue('murmur3');
  await expect(page.locator('#measure-hash-url')).toContainText("'sha1'");
  await expect(page.locator('#measure-scheme')).toHaveValue('enhanced');
  await expect(page.locator('#measure-scheme-url')).toContainText("'<b>'");
  // Only those sections carry the message; the rest drew.
  await expect(page.locator('.url-error:not(:empty)')).toHaveCount(3);
  const want = cli(['size', '--n', '1000000', '--p', '0.01']);
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
  await expect(page.locator('#measure-summary')).toContainText('of 2,000 bits are 1');
  for (const id of ['#removal-member-grid .counter', '#cuckoo-table .bucket', '#bip-out dd', '#systems-table tbody tr', '#growing-chart canvas'])
    expect(await page.locator(id).count(), id).toBeGreaterThan(0);
  // Choosing a mode clears the link's message.
  await page.check('input[name="mode"][value="n_m"]');
  await expect(page.locator('#tune-mode-url')).toBeEmpty();
  expect(errors).toEqual([]);
});

test('"Fill every bit" fills even 256 bits with one hash, within the item limit, and leaves section 1 usable', async ({ page }, info) => {
  await open(page, '/');
  await page.fill('#stage-m', '256');
  await page.fill('#stage-k', '1');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(256);
  const ms = await page.evaluate(() => {
    const t = performance.now();
    document.querySelector('#stage-fill').click();
    return performance.now() - t;
  });
  report(info, 'Fill every bit, m = 256, k = 1', ms);
  await expect(page.locator('#stage-summary')).toContainText('of the 256 bits (100.0%)');
  await expect(page.locator('#stage-word-error')).toBeEmpty();
  // One more word is taken, and the filter stays drawn.
  const n = Number((await page.locator('#stage-summary').textContent()).match(/^([\d,]+) items/)[1].replace(/,/g, ''));
  expect(n).toBeLessThanOrEqual(4000);
  await page.fill('#stage-word', 'one-more');
  await page.click('#stage-add');
  await expect(page.locator('#stage-word-error')).toBeEmpty();
  await expect(page.locator('#stage-summary')).toContainText(`${(n + 1).toLocaleString('en-US')} items with 1 hash each`);
  // Changing m still works: the same items in 64 bits.
  await page.fill('#stage-m', '64');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(64);
  await expect(page.locator('#stage-word-error')).toBeEmpty();
  // A small m fills, with no message.
  await page.click('#stage-reset');
  await page.fill('#stage-m', '16');
  await page.click('#stage-fill');
  await expect(page.locator('#stage-summary')).toContainText('of the 16 bits (100.0%)');
  await expect(page.locator('#stage-word-error')).toBeEmpty();
});

// (Seed 2: the default seed's tables were answered by the site's build.)
test('section 4 shows which trial is running until its table is full', async ({ page }) => {
  await open(page, '/?sc_seed=2');
  await page.locator('#schemes').scrollIntoViewIfNeeded();
  await expect(page.locator('#schemes-progress')).toContainText(/Trial \d of 6 running/);
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
  await expect(page.locator('#schemes-progress')).toBeEmpty();
});

test('when the worker cannot start, section 4 says so instead of waiting', async ({ page }) => {
  await page.route('**/worker.js', (route) => route.abort());
  await open(page, '/?sc_seed=2');
  await page.locator('#schemes').scrollIntoViewIfNeeded();
  await expect(page.locator('#schemes-progress')).toContainText('background engine stopped', { timeout: 20_000 });
  await expect(page.locator('#schemes-table')).not.toHaveAttribute('aria-busy', 'true');
  // The rest of the page still answers.
  await page.fill('#tune-p', '0.1%');
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(cli(['size', '--n', '1000000', '--p', '0.001']).m));
});
