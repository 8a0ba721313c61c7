// Numbers as people type them: sizes with units (64KiB), counts with
// suffixes (10k), rates as "1 in 1000". The engine reads each input (its
// parse operation), the page says beside it what was understood, the
// section computes with that value, and the CLI reads the same text as the
// same number. A value out of a drawing's range is refused beside its
// input with the range the engine's limits operation gives.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli, thousands } from './cli.mjs';

async function engineLimits(page) {
  return page.evaluate(async () => {
    const { default: createModule } = await import('/bloomlab.mjs');
    const engine = await createModule();
    return JSON.parse(engine.run('limits', '{}'));
  });
}

test('64KiB in m and 10k in n are echoed and tune the filter; the CLI reads them alike', async ({ page }) => {
  await open(page, '/');
  await page.check('#tune-form input[name="mode"][value="n_m_k"]');
  await page.fill('#tune-m', '64KiB');
  await page.fill('#tune-n', '10k');
  await page.fill('#tune-k', '7');
  await expect(page.locator('#tune-m-echo')).toHaveText('= 524,288 bits');
  await expect(page.locator('#tune-n-echo')).toHaveText('= 10,000');
  // Text that is already the number needs no echo.
  await expect(page.locator('#tune-k-echo')).toHaveText('');
  const want = cli(['analyze', '--m', '64KiB', '--n', '10k', '--k', '7']);
  expect(want.m).toBe(524288);
  expect(want.n).toBe(10000);
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
  await expect(page.locator('#tune-out')).toHaveAttribute('data-n', String(want.n));
  await expect(page.locator('#tune-out')).toContainText(`exact${(want.fpr_exact * 100).toExponential(3)}% (1 in ${thousands(Math.round(1 / want.fpr_exact))})`);
  // The echo is a polite live region the input names as describing it.
  await expect(page.locator('#tune-m-echo')).toHaveAttribute('aria-live', 'polite');
  expect(await page.getAttribute('#tune-m', 'aria-describedby')).toContain('tune-m-echo');
});

test('"1 in 1000" in p is echoed as 0.1% and sizes the filter as the CLI does', async ({ page }) => {
  await open(page, '/');
  await page.check('#tune-form input[name="mode"][value="n_p"]');
  await page.fill('#tune-n', '10k');
  await page.fill('#tune-p', '1 in 1000');
  await expect(page.locator('#tune-p-echo')).toHaveText('= 0.1%, 1 in 1,000');
  const want = cli(['size', '--n', '10k', '--p', '1 in 1000']);
  expect(want.p).toBe(0.001);
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
  await expect(page.locator('#tune-out')).toHaveAttribute('data-k', String(want.k));
  await page.fill('#tune-p', '1e-3');
  await expect(page.locator('#tune-p-echo')).toHaveText('= 0.1%, 1 in 1,000');
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
  // A percent as the echo would write it needs no echo.
  await page.fill('#tune-p', '0.1%');
  await expect(page.locator('#tune-p-echo')).toHaveText('');
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(want.m));
});

test('a drawing takes a size with a unit, and refuses one out of its range with the engine\'s range', async ({ page }) => {
  await open(page, '/');
  const [lo, hi] = (await engineLimits(page)).ranges['stage.m'];
  // 32 bytes: 256 bits, drawn as 256 bits.
  await page.fill('#stage-m', '32 B');
  await expect(page.locator('#stage-m-echo')).toHaveText('= 256 bits');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(256);
  await expect(page.locator('#stage-m-error')).toHaveText('');
  // 1 KiB: 8,192 bits, read but past the drawing's top.
  await page.fill('#stage-m', '1KiB');
  await expect(page.locator('#stage-m-echo')).toHaveText('= 8,192 bits');
  await expect(page.locator('#stage-m-error')).toHaveText(
    `Bits, m: '1KiB' is out of range; allowed: a whole number from ${lo} to ${hi}`);
  await expect(page.locator('#stage-m')).toHaveAttribute('aria-invalid', 'true');
  // Not a number at all: no echo, and the refusal names the value.
  await page.fill('#stage-m', '64 KiBs');
  await expect(page.locator('#stage-m-echo')).toHaveText('');
  await expect(page.locator('#stage-m-error')).toContainText("Bits, m: '64 KiBs'");
  await page.fill('#stage-m', '8');
  await expect(page.locator('#stage-bits .bit')).toHaveCount(8);
  await expect(page.locator('#stage-m-error')).toHaveText('');
});

test('section 5 takes 0.1k counters and refuses 1M with the engine\'s range', async ({ page }) => {
  await open(page, '/#removal');
  const [lo, hi] = (await engineLimits(page)).ranges['removal.m'];
  await page.fill('#removal-m', '0.1k');
  await expect(page.locator('#removal-m-echo')).toHaveText('= 100 bits');
  await expect(page.locator('#removal-m-error')).toHaveText('');
  await page.fill('#removal-m', '1M');
  await expect(page.locator('#removal-m-error')).toHaveText(
    `Counters, m: '1M' is out of range; allowed: a whole number from ${lo} to ${hi}`);
});

test('a section that computes later still echoes each input as it is typed', async ({ page }) => {
  await open(page, '/#which');
  await page.fill('#which-n', '20k');
  await expect(page.locator('#which-n-echo')).toHaveText('= 20,000');
  await page.fill('#drill-m', '0.5 KiB');
  await expect(page.locator('#drill-m-echo')).toHaveText('= 4,096 bits');
  await page.fill('#which-p', '1/50');
  await expect(page.locator('#which-p-echo')).toHaveText('= 2%, 1 in 50');
  // "2000" or "2,000" is already the number.
  await page.fill('#which-n', '2,000');
  await expect(page.locator('#which-n-echo')).toHaveText('');
});
