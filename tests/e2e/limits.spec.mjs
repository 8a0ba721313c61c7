// The page keeps no copy of a bound or a default the engine defines: every
// drawing's range and every engine default, as the engine's own limits
// operation gives them, is what the page shows and enforces.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';

// The limits operation of the engine the page serves, asked directly.
async function engineLimits(page) {
  return page.evaluate(async () => {
    const { default: createModule } = await import('/bloomlab.mjs');
    const engine = await createModule();
    return JSON.parse(engine.run('limits', '{}'));
  });
}

test('every drawing range and engine default on the page is the limits operation\'s', async ({ page }) => {
  await open(page, '/');
  const limits = await engineLimits(page);
  expect(Object.keys(limits.ranges).length).toBeGreaterThanOrEqual(9);
  expect(Object.keys(limits.defaults).length).toBeGreaterThanOrEqual(5);

  // A fresh page shows each default the engine defines.
  for (const [input, value] of Object.entries(limits.defaults)) {
    const [prefix, field] = input.split('.');
    const shown = await page.inputValue(`#${prefix}-${field}`);
    expect(Number(shown.replace(/,/g, '')), input).toBe(value);
  }

  // One past the top of each range is refused beside its input, naming the
  // engine's range; the value it had is taken back.
  for (const [input, [lo, hi]] of Object.entries(limits.ranges)) {
    const [prefix, field] = input.split('.');
    const selector = `#${prefix}-${field}`;
    const before = await page.inputValue(selector);
    await page.fill(selector, String(hi + 1));
    await expect(page.locator(`${selector}-error`), input).toContainText(`allowed: a whole number from ${lo} to ${hi}`);
    await page.fill(selector, before);
    await expect(page.locator(`${selector}-error`), input).toHaveText('');
  }
});
