import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli } from './cli.mjs';

test('n = 20 and p = 1% with prime rounding gives m = 193 and k = 7', async ({ page }) => {
  await open(page, '/');
  await page.fill('#tune-n', '20');
  await page.fill('#tune-p', '1%');
  await page.check('#tune-prime');
  const want = cli(['size', '--n', '20', '--p', '0.01', '--prime']);
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
  await expect(page.locator('#tune-out')).toHaveAttribute('data-k', String(want.k));
  expect(want.m).toBe(193);
  expect(want.k).toBe(7);
  await expect(page.locator('#tune-out')).toContainText('193 (25 bytes)');
  await expect(page.locator('#tune-out')).toContainText('1.016%');
});

test('the BIP 37 preset is the filter BIP 37 sizes for 20,000 items at 0.1%; charts are drawn', async ({ page }) => {
  await open(page, '/');
  await page.getByRole('button', { name: /BIP 37/ }).click();
  const bip = cli(['bip37', '--n', '20000', '--p', '0.001']);
  const m = bip.size_bytes * 8;
  const want = cli(['analyze', '--m', String(m), '--n', '20000', '--k', String(bip.n_hash_funcs)]);
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(m));
  await expect(page.locator('#tune-out')).toHaveAttribute('data-k', String(bip.n_hash_funcs));
  const exact = (want.fpr_exact * 100).toPrecision(4) + '%';
  await expect(page.locator('#tune-out')).toContainText(exact);
  for (const id of ['#tune-chart-n', '#tune-chart-k', '#tune-chart-m']) await expect(page.locator(`${id} canvas`)).toHaveCount(1);
});

test('a rate outside (0, 1) is refused beside the input', async ({ page }) => {
  await open(page, '/');
  await page.fill('#tune-p', '150%');
  await expect(page.locator('#tune-p-error')).toContainText("'150%'");
  await expect(page.locator('#tune-p-error')).toContainText('between 0 and 1');
});

// Each solve is checked against the CLI's analyze: the rate at the answer is
// within the target, and one bit fewer (or one item more) passes it.
async function solveIn(page, mode, fields) {
  await page.check(`#tune-form input[name="mode"][value="${mode}"]`);
  for (const [f, v] of Object.entries(fields)) await page.fill(`#tune-${f}`, v);
}
const approx = (m, n, k) => cli(['analyze', '--m', String(m), '--n', String(n), '--k', String(k)]).fpr_approx;

test('n, p and k: the fewest bits that reach p, checked against analyze', async ({ page }) => {
  await open(page, '/');
  await solveIn(page, 'n_p_k', { n: '1,000', p: '1%', k: '7' });
  await expect(page.locator('#tune-out')).toHaveAttribute('data-k', '7');
  const m = +(await page.locator('#tune-out').getAttribute('data-m'));
  expect(m).toBe(9593);
  expect(approx(m, 1000, 7)).toBeLessThanOrEqual(0.01);
  expect(approx(m - 1, 1000, 7)).toBeGreaterThan(0.01);
  const want = cli(['analyze', '--m', String(m), '--n', '1000', '--k', '7']);
  await expect(page.locator('#tune-out')).toContainText((want.fpr_exact * 100).toPrecision(4) + '%');
  await expect(page.locator('#tune-out dd[data-field="Bits, m"] .solved')).toHaveText('solved');
  await expect(page.locator('#tune-solves')).toContainText('fewest bits');
  expect(page.url()).toContain('tu_mode=n_p_k');
});

test('m, p and k: the most items m bits hold; m and p: the most items and the best k', async ({ page }) => {
  await open(page, '/');
  await solveIn(page, 'm_p_k', { m: '9,593', p: '1%', k: '7' });
  await expect(page.locator('#tune-out')).toHaveAttribute('data-n', '1000');
  expect(approx(9593, 1000, 7)).toBeLessThanOrEqual(0.01);
  expect(approx(9593, 1001, 7)).toBeGreaterThan(0.01);
  await expect(page.locator('#tune-n')).toBeHidden();
  await solveIn(page, 'm_p', { m: '9,593', p: '1%' });
  await expect(page.locator('#tune-out')).toHaveAttribute('data-k', '7');
  await expect(page.locator('#tune-out')).toHaveAttribute('data-n', '1000');
  await expect(page.locator('#tune-k')).toBeHidden();
  // k = 6 or 8 would not hold those 1,000 items under 1%.
  for (const k of [6, 8]) expect(approx(9593, 1000, k)).toBeGreaterThan(0.01);
  // The link keeps the question: reloaded, it asks it again.
  await page.reload();
  await page.locator('body.ready').waitFor();
  await expect(page.locator('#tune-form input[value="m_p"]')).toBeChecked();
  await expect(page.locator('#tune-out')).toHaveAttribute('data-n', '1000');
});

test('a target no filter of these m and k meets is refused beside p with the range', async ({ page }) => {
  await open(page, '/?tu_mode=m_p_k&tu_m=8&tu_k=3&tu_p=1%25');
  const least = approx(8, 1, 3);
  await expect(page.locator('#tune-p-error')).toContainText('even one item');
  await expect(page.locator('#tune-p-error')).toContainText(`from ${+least.toPrecision(3)}`);
  await expect(page.locator('#tune-p-error')).toContainText(/^Target rate, p: /);
  await expect(page.locator('#tune-p')).toHaveValue('1%');
  await expect(page.locator('#tune-out')).toHaveClass(/stale/);
  await page.fill('#tune-p', '5%');
  await expect(page.locator('#tune-p-error')).toBeEmpty();
  await expect(page.locator('#tune-out')).toHaveAttribute('data-n', '1');
  expect(approx(8, 1, 3)).toBeLessThanOrEqual(0.05);
  expect(approx(8, 2, 3)).toBeGreaterThan(0.05);
});
