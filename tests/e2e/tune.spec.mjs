import { test, expect } from '@playwright/test';
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
