// Section 11, someone picks the words: the figures the page shows for an
// attack, on the drawn filter and the realistic one, public and keyed, are
// those of `bloomlab attack ... --json` for the same settings; the drawing
// is the report's cells and positions; a bad input is refused beside it;
// the URL restores the section.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { cli, thousands } from './cli.mjs';

// What the page asks of the engine (web/js/views/attack.js), as CLI flags.
function smallArgs(kind, m, k, seed) {
  const extra = { pollute: ['--fill', '0.9'], target: ['--count', '20'],
    forge: ['--n', String(Math.floor(m / 10)), '--count', '3'], remove: ['--n', String(Math.floor(m / 10)), '--count', '3'] }[kind];
  return ['attack', kind, '--m', String(m), '--k', String(k), '--seed', String(seed), '--tries', '2000000', ...extra];
}
function realArgs(kind, seed) {
  const extra = { pollute: ['--fill', '0.5'], target: ['--count', '20'],
    forge: ['--n', '1000', '--count', '20'], remove: ['--n', '1000', '--count', '20'] }[kind];
  return ['attack', kind, '--m', '10000', '--k', '7', '--seed', String(seed), ...extra];
}
const keyed = (args) => [...args, '--keyed'];

// The figures of a report as the page writes them, per attack.
function figures(r) {
  if (r.target) return [`${thousands(r.target.hit)} of ${thousands(r.target.victims)} innocent keys`, `at most ${r.target.most_insertions} crafted insertion`, `(${thousands(r.target.insertions)} in all)`];
  if (r.remove) return [`carried out ${thousands(r.remove.accepted)}`, `${thousands(r.remove.lost)} of its ${thousands(r.n)} members`, `${r.remove.asked} crafted word`];
  if (r.forge) return [`${thousands(r.tries)} tries found ${r.forge.found} word`, `the filter answers maybe for ${thousands(r.forge.really_maybe)} of them`];
  return [`${thousands(r.pollute.crafted)} crafted words set`, `ordinary words took ${thousands(r.pollute.random)}`, `${r.pollute.ratio.toFixed(2)} times as many`];
}

async function expectSection(page, kind, m, k, seed, isKeyed) {
  const small = cli(isKeyed ? keyed(smallArgs(kind, m, k, seed)) : smallArgs(kind, m, k, seed));
  const text = page.locator('#attack-small-text');
  await expect(text).toHaveAttribute('data-kind', kind);
  await expect(text).toHaveAttribute('data-keyed', String(isKeyed));
  for (const f of figures(small)) await expect(text).toContainText(f);
  const cells = page.locator('#attack-cells');
  await expect(cells).toHaveAttribute('data-cells', small.drawing.cells.join(','));
  await expect(cells).toHaveAttribute('data-aimed', small.drawing.aimed.join(','));
  await expect(cells).toHaveAttribute('data-actual', small.drawing.actual.join(','));
  await expect(cells.locator('.cell')).toHaveCount(m);
  await expect(cells.locator('.cell.aimed')).toHaveCount(new Set(small.drawing.aimed).size);
  await expect(cells.locator('.cell.actual')).toHaveCount(isKeyed ? new Set(small.drawing.actual).size : 0);
  await expect(page.locator('#attack-legend')).toContainText(small.drawing.key);

  const pub = cli(realArgs(kind, seed)), sec = cli(keyed(realArgs(kind, seed)));
  for (const [id, r] of [['#attack-public', pub], ['#attack-keyed-text', sec]]) {
    const el = page.locator(id);
    await expect(el).toHaveAttribute('data-done', kind, { timeout: 60_000 });
    for (const f of figures(r)) await expect(el).toContainText(f);
  }
  return { small, pub, sec };
}

test('section 11 shows the CLI\'s figures for target and remove, public and keyed', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, '/?at_kind=target&at_seed=3#attack');
  const t = await expectSection(page, 'target', 256, 4, 3, false);
  // The public attack frames every victim; a secret key leaves it to chance.
  expect(t.pub.target.hit).toBe(20);
  expect(t.sec.target.hit).toBe(0);
  await expect(page.locator('#attack-public')).toContainText('20 of 20 innocent keys');
  await expect(page.locator('#attack-keyed-text')).toContainText('0 of 20 innocent keys');

  await page.locator('#attack-keyed').check();
  const tk = await expectSection(page, 'target', 256, 4, 3, true);
  expect(tk.small.drawing.aimed).not.toEqual(tk.small.drawing.actual);

  await page.locator('#attack-kind').selectOption('remove');
  await page.locator('#attack-keyed').uncheck();
  const r = await expectSection(page, 'remove', 256, 4, 3, false);
  expect(r.pub.remove.lost).toBeGreaterThan(0);
  expect(r.sec.remove.accepted).toBe(0);
  await page.locator('#attack-keyed').check();
  await expectSection(page, 'remove', 256, 4, 3, true);
});

test('section 11 forge and pollute on another drawn size equal the CLI', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, '/?at_kind=forge&at_m=512&at_k=5&at_seed=9#attack');
  await expectSection(page, 'forge', 512, 5, 9, false);
  await page.locator('#attack-kind').selectOption('pollute');
  await expectSection(page, 'pollute', 512, 5, 9, false);
});

test('section 11 refuses a bad input beside it, and the URL restores the section', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page, '/#attack');
  const m = page.locator('#attack-m');
  await m.fill('5000');
  await expect(page.locator('#attack-m-error')).toContainText("Drawn filter's bits, m: '5000' is out of range; allowed: a whole number from 64 to 1024");
  await expect(m).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#attack-out')).toHaveClass(/stale/);
  await m.fill('128');
  await expect(page.locator('#attack-m-error')).toHaveText('');
  await page.locator('#attack-seed').fill('x');
  await expect(page.locator('#attack-seed-error')).toContainText('allowed: a whole number from 0 to 1000000000');
  await page.locator('#attack-seed').fill('7');
  await page.locator('#attack-kind').selectOption('forge');
  await page.locator('#attack-keyed').check();
  await expect(page).toHaveURL(/at_kind=forge/);
  await expect(page).toHaveURL(/at_keyed=1/);
  await expect(page).toHaveURL(/at_m=128/);
  await expect(page).toHaveURL(/at_seed=7/);
  await expect(page.locator('#attack-small-text')).toHaveAttribute('data-keyed', 'true');
  const shown = await page.locator('#attack-small-text').textContent();

  await open(page, page.url());
  await expect(page.locator('#attack-kind')).toHaveValue('forge');
  await expect(page.locator('#attack-keyed')).toBeChecked();
  await expect(page.locator('#attack-m')).toHaveValue('128');
  await expect(page.locator('#attack-seed')).toHaveValue('7');
  await expect(page.locator('#attack-small-text')).toHaveText(shown);
  await expectSection(page, 'forge', 128, 4, 7, true);

  // An attack the page does not know, in a link, is refused beside the choice.
  await open(page, '/?at_kind=flood#attack');
  await expect(page.locator('#attack-kind')).toHaveValue('pollute');
  await expect(page.locator('#attack-kind-error')).toContainText("Attack: 'flood' in the link is not allowed");
});
