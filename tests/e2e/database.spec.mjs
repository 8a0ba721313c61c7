// Section 10, in front of a database: the page's counts of database
// queries are checked against `bloomlab build` and `bloomlab query` on the
// very keys the page used (downloaded from it), and the database's own
// answers against those keys.
import { test, expect } from './fixtures.mjs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from './open.mjs';
import { bloomlab, thousands } from './cli.mjs';

function sh(args, input) {
  const r = spawnSync(bloomlab, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`bloomlab ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function download(page, selector, path) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  await file.saveAs(path);
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
}

test('section 10 makes the database queries that bloomlab query predicts for the same keys', async ({ page }) => {
  const outside = [];
  // The context's requests, the workers' included; the context outlives
  // this test (fixtures.mjs), so the listener goes at its end.
  const onRequest = (req) => {
    if (!req.url().startsWith('http://127.0.0.1:') && !req.url().startsWith('blob:')) outside.push(req.url());
  };
  page.context().on('request', onRequest);
  // SQLite's own WebAssembly is part of the site, served as such.
  const served = await page.request.get('/sqlite3.wasm');
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('application/wasm');
  await open(page, '/?db_n=3,000&db_t=20,000&db_s=2%25&db_p=2%25&db_u=4,000&db_seed=5#database');
  const out = page.locator('#database-out');
  await expect(out).toHaveAttribute('data-requests', '20000', { timeout: 90_000 });
  await expect(out).not.toHaveClass(/stale/);

  const dir = mkdtempSync(join(tmpdir(), 'bloomlab-db-'));
  try {
    const banned = await download(page, '#database-banned-file', join(dir, 'banned.txt'));
    const traffic = await download(page, '#database-traffic-file', join(dir, 'requests.txt'));
    expect(banned.length).toBe(3000);
    expect(new Set(banned).size).toBe(3000);
    expect(traffic.length).toBe(20000);

    const n = await out.getAttribute('data-n');
    const p = await out.getAttribute('data-p');
    const built = sh(['build', '--kind', 'counting', '--n', n, '--p', p, join(dir, 'banned.txt'), '-o', join(dir, 'banned.filter'), '--json']);
    expect(String(built.m)).toBe(await out.getAttribute('data-m'));
    expect(String(built.k)).toBe(await out.getAttribute('data-k'));
    const answers = sh(['query', join(dir, 'banned.filter'), '-', '--json'], traffic.join('\n') + '\n');
    expect(answers.length).toBe(20000);
    const maybes = answers.filter((a) => a.maybe).length;
    const isBanned = new Set(banned);
    const fromBanned = traffic.filter((t) => isBanned.has(t)).length;
    expect(fromBanned).toBeGreaterThan(0);
    expect(maybes).toBeGreaterThan(fromBanned);
    console.log(`database section: ${traffic.length} requests, ${fromBanned} from banned keys; bloomlab query: ${maybes} maybe`);

    // Queries made with the filter: exactly the CLI's maybes. Without it:
    // one a request. The database found the banned requests either way, and
    // the rest of the filter's queries were its false positives.
    expect(await out.getAttribute('data-filtered-queries')).toBe(String(maybes));
    expect(await out.getAttribute('data-alone-queries')).toBe('20000');
    expect(await out.getAttribute('data-alone-found')).toBe(String(fromBanned));
    expect(await out.getAttribute('data-filtered-found')).toBe(String(fromBanned));
    expect(await out.getAttribute('data-false-positives')).toBe(String(maybes - fromBanned));
    expect(await out.getAttribute('data-rows')).toBe('3000');
    const rows = page.locator('#database-table tbody tr');
    await expect(rows.nth(0).locator('td').nth(0)).toHaveText(thousands(20000));
    await expect(rows.nth(1).locator('td').nth(0)).toHaveText(thousands(maybes));
    await expect(rows.nth(1).locator('td').nth(2)).toHaveText(thousands(maybes - fromBanned));
    await expect(page.locator('#database-pays')).toContainText(`spared the database ${thousands(20000 - maybes)} of 20,000 queries`);

    // Unban orders: the gate that waits for the database loses no banned
    // key; the one that does not, here, does.
    expect(await out.getAttribute('data-fn-with')).toBe('0');
    const lost = Number(await out.getAttribute('data-fn-without'));
    expect(lost).toBeGreaterThan(0);
    await expect(page.locator('#database-unban-table tbody tr').nth(1).locator('td').nth(2)).toHaveText(thousands(lost));
    await expect(page.locator('#database-lost')).toContainText(`now answers no to ${thousands(lost)} address`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    page.context().off('request', onRequest);
  }
  expect(outside).toEqual([]);
});

test('section 10 refuses work that would keep the page busy, beside the input, with the range', async ({ page }) => {
  await open(page, '/?db_n=1,000,000&db_t=1,000,000#database');
  const error = page.locator('#database-traffic-error');
  await expect(error).toContainText('Requests: 1,000,000 banned keys and 1,000,000 requests', { timeout: 60_000 });
  await expect(error).toContainText('would take about');
  await expect(error).toContainText('allowed: work estimated at up to 10 s');
  await expect(page.locator('#database-traffic')).toHaveAttribute('aria-invalid', 'true');
  await page.fill('#database-traffic', '2,000,000');
  await expect(error).toContainText("Requests: '2,000,000' is out of range; allowed: a whole number from 1 to 1000000", { timeout: 30_000 });
  await page.fill('#database-traffic', '1,000');
  await page.fill('#database-banned', '500');
  await expect(page.locator('#database-out')).toHaveAttribute('data-requests', '1000', { timeout: 60_000 });
  await expect(error).toBeEmpty();
});

test('section 10 takes a pasted list of keys', async ({ page }) => {
  await open(page, '/?db_t=2,000&db_s=50%25&db_u=0#database');
  await expect(page.locator('#database-out')).toHaveAttribute('data-requests', '2000', { timeout: 60_000 });
  await page.fill('#database-keys', 'alpha\nbeta\nalpha\ngamma\n');
  const out = page.locator('#database-out');
  await expect(out).toHaveAttribute('data-rows', '3', { timeout: 60_000 });
  const found = Number(await out.getAttribute('data-alone-found'));
  // About half of 2,000 requests come from the three keys (sd 22).
  expect(found).toBeGreaterThan(850);
  expect(found).toBeLessThan(1150);
  expect(await out.getAttribute('data-filtered-found')).toBe(String(found));
  await expect(page.locator('#database-lost')).toContainText('No unban orders');
});
