import { test, expect } from '@playwright/test';
import { open } from './open.mjs';
import { cli } from './cli.mjs';

async function litBits(page) {
  return page.$$eval('#stage-bits .bit', (bits) => bits.filter((b) => b.classList.contains('on')).map((b) => +b.dataset.bit));
}

test('adding cherry lights exactly the bits bloomlab positions gives', async ({ page }) => {
  for (const [m, k] of [[32, 3], [64, 5], [100, 7]]) {
    // Start from an empty filter: only the word we add lights bits.
    await open(page, `/?st_m=${m}&st_k=${k}&st_add=&st_look=`);
    await expect(page.locator('#stage-bits .bit')).toHaveCount(m);
    expect(await litBits(page)).toEqual([]);
    const expected = cli(['positions', '--m', String(m), '--k', String(k), '--hash', 'murmur3', '--scheme', 'enhanced', 'cherry'])[0].positions;
    await page.fill('#stage-word', 'cherry');
    await page.click('#stage-add');
    const flashing = await page.$$eval('#stage-bits .bit.flash', (bits) => bits.map((b) => +b.dataset.bit));
    expect(new Set(flashing)).toEqual(new Set(expected));
    for (const p of expected) await expect(page.locator(`#stage-bits .bit[data-bit="${p}"]`)).toHaveClass(/\bon\b/);
    await expect(page.locator('#stage-items')).toContainText(`cherry → bits ${expected.join(', ')}`);
  }
});

test('the opening picture: cherry is a member, peach meets a 0, papaya is a false positive', async ({ page }) => {
  await open(page, '/');
  const queries = page.locator('#stage-queries li');
  await expect(queries).toHaveCount(3);
  await expect(queries.nth(0)).toContainText('cherry');
  await expect(queries.nth(0)).toContainText('it was added');
  await expect(queries.nth(1)).toContainText('peach');
  await expect(queries.nth(1)).toContainText('definitely not');
  await expect(queries.nth(2)).toContainText('papaya');
  await expect(queries.nth(2)).toContainText('false positive');
  await expect(queries.nth(2)).toContainText('mango');
  await expect(queries.nth(2)).toContainText('banana');
  await expect(queries.nth(2)).toContainText('apple');
  // Five fruit, three hashes each: the bits the CLI's positions give.
  const fruit = cli(['positions', '--m', '32', '--k', '3', 'apple', 'banana', 'cherry', 'grape', 'mango']);
  const expected = [...new Set(fruit.flatMap((f) => f.positions))].sort((a, b) => a - b);
  expect(await litBits(page)).toEqual(expected);
  await expect(page.locator('#stage-summary')).toContainText(`set ${expected.length} of the 32 bits`);
  // Tapping a bit says who set it.
  await page.click(`#stage-bits .bit[data-bit="${fruit[0].positions[0]}"]`);
  await expect(page.locator('#stage-bit-info')).toContainText('apple');
});

test('fill every bit makes every lookup say maybe; bad m is refused beside the input', async ({ page }) => {
  await open(page, '/');
  await page.click('#stage-fill');
  expect((await litBits(page)).length).toBe(32);
  await expect(page.locator('#stage-queries li.absent')).toHaveCount(0);
  await page.fill('#stage-m', '300');
  await expect(page.locator('#stage-m-error')).toContainText("m: '300'");
  await expect(page.locator('#stage-m-error')).toContainText('8 to 256');
  await expect(page.locator('#stage-m')).toHaveValue('300');
});
