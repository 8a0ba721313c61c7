import { test, expect } from './fixtures.mjs';
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

const fruitNames = ['apple', 'banana', 'cherry', 'grape', 'mango'];

test('removing an added fruit clears its bits, and a fruit that shared one now reads no', async ({ page }) => {
  await open(page, '/');
  const fruit = cli(['positions', '--m', '32', '--k', '3', '--hash', 'murmur3', '--scheme', 'enhanced', ...fruitNames]);
  // A fruit whose bits another fruit also set, from the CLI's positions.
  const shares = (a, b) => a.positions.some((p) => b.positions.includes(p));
  const gone = fruit.find((f) => fruit.some((g) => g !== f && shares(f, g)));
  const lost = fruit.filter((g) => g !== gone && shares(gone, g)).map((g) => g.text);
  const kept = fruit.filter((g) => g !== gone && !shares(gone, g)).map((g) => g.text);
  expect(lost.length).toBeGreaterThan(0);
  await page.fill('#stage-word', gone.text);
  await page.click('#stage-remove');
  const cleared = await page.$$eval('#stage-bits .bit.cleared', (bits) => bits.map((b) => +b.dataset.bit));
  expect(new Set(cleared)).toEqual(new Set(gone.positions));
  for (const p of gone.positions) await expect(page.locator(`#stage-bits .bit[data-bit="${p}"] .val`)).toHaveText('0');
  for (const name of lost) {
    await expect(page.locator('#stage-items li', { hasText: name })).toContainText('now reads no: a false negative');
    await expect(page.locator('#stage-removal')).toContainText(name);
  }
  for (const name of kept) await expect(page.locator('#stage-items li', { hasText: name })).not.toContainText('reads no');
  await expect(page.locator('#stage-removal')).toContainText(`Removing ${gone.text} cleared`);
  expect(page.url()).toContain(`st_rm=${gone.text}`);
  // Adding it again puts its bits back, and every fruit reads maybe.
  await page.click('#stage-add');
  await expect(page.locator('#stage-bits .bit.cleared')).toHaveCount(0);
  await expect(page.locator('#stage-removal')).toBeEmpty();
  // A word never added is not removed: refused beside the input.
  await page.fill('#stage-word', 'durian');
  await page.click('#stage-remove');
  await expect(page.locator('#stage-word-error')).toContainText("'durian' is not an added item");
});

test('a removal by keyboard: Delete on an item in the list', async ({ page }) => {
  await open(page, '/');
  await page.locator('#stage-items li[data-item="0"]').focus();
  await page.keyboard.press('Delete');
  await expect(page.locator('#stage-items li[data-item="0"]')).toContainText('removed');
  await expect(page.locator('#stage-bits .bit.cleared')).not.toHaveCount(0);
});

test('lines join a word to each of its bits, by mouse and by keyboard', async ({ page }) => {
  await open(page, '/');
  const fruit = cli(['positions', '--m', '32', '--k', '3', '--hash', 'murmur3', '--scheme', 'enhanced', ...fruitNames]);
  // Keyboard: the list is one Tab stop; Down moves to the next fruit.
  await page.locator('#stage-items li[data-item="0"]').focus();
  await page.keyboard.press('ArrowDown');
  for (const [i, f] of [[1, fruit[1]]]) {
    await expect(page.locator(`#stage-items li[data-item="${i}"]`)).toHaveClass(/lit/);
    const ends = await page.$$eval('#stage-lines line', (ls) => ls.map((l) => {
      const svg = l.ownerSVGElement.getBoundingClientRect();
      return { x: svg.left + +l.getAttribute('x2'), y: svg.top + +l.getAttribute('y2') };
    }));
    const distinct = [...new Set(f.positions)];
    expect(ends.length).toBe(distinct.length);
    // Each line ends inside one of the word's bits.
    for (const p of distinct) {
      const box = await page.locator(`#stage-bits .bit[data-bit="${p}"]`).boundingBox();
      expect(ends.some((e) => e.x >= box.x && e.x <= box.x + box.width && e.y >= box.y && e.y <= box.y + box.height), `bit ${p}`).toBe(true);
    }
  }
  // Mouse: hovering a lookup draws its lines instead.
  await page.hover('#stage-queries li[data-query="1"]');
  await expect(page.locator('#stage-lines line')).toHaveCount(new Set(cli(['positions', '--m', '32', '--k', '3', 'peach'])[0].positions).size);
});

test('several never-added words looked up at once: each shows its bits and its answer', async ({ page }) => {
  await open(page, '/');
  const words = ['kiwi', 'plum', 'fig'];
  await page.fill('#stage-word', words.join(', '));
  await page.click('#stage-look');
  const queries = page.locator('#stage-queries li');
  const fruit = cli(['positions', '--m', '32', '--k', '3', ...fruitNames]);
  const lit = new Set(fruit.flatMap((f) => f.positions));
  const probes = cli(['positions', '--m', '32', '--k', '3', ...words]);
  for (const [i, w] of probes.entries()) {
    await expect(queries.nth(i)).toContainText(`${w.text} reads bits ${w.positions.join(', ')}`);
    const maybe = w.positions.every((p) => lit.has(p));
    await expect(queries.nth(i)).toContainText(maybe ? 'false positive' : 'definitely not');
  }
});

test('a removal in the link is restored, and one of a word never added is refused beside the input', async ({ page }) => {
  await open(page, '/?st_rm=grape%0Adurian');
  await expect(page.locator('#stage-items li', { hasText: 'grape' })).toContainText('removed');
  await expect(page.locator('#stage-rm-url')).toContainText("'durian' is not an added item");
  const grape = cli(['positions', '--m', '32', '--k', '3', 'grape'])[0].positions;
  const cleared = await page.$$eval('#stage-bits .bit.cleared', (bits) => bits.map((b) => +b.dataset.bit));
  expect(new Set(cleared)).toEqual(new Set(grape));
  expect(page.url()).toContain('st_rm=grape');
  expect(page.url()).not.toContain('durian');
});
