// The filter family's sections (removal, cuckoo, combine, growing, real
// sizes) against the CLI's reports for the same input.
import { test, expect } from './fixtures.mjs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from './open.mjs';
import { cli, pct, thousands } from './cli.mjs';

const plants = ['elder', 'fern', 'heather', 'ivy', 'juniper', 'laurel', 'maple', 'nettle', 'oak', 'rowan', 'sage', 'thyme'];

async function counters(page, grid) {
  return page.$$eval(`${grid} .counter`, (cs) => cs.map((c) => +c.dataset.value));
}

async function positions(page, grid, cls) {
  return page.$$eval(`${grid} .counter.${cls}`, (cs) => cs.map((c) => +c.dataset.pos));
}

test('removal: the member, the hazard and the stuck counters are the CLI\'s', async ({ page }) => {
  await open(page, '/#removal');
  const list = plants.join('\n');

  const member = cli(['removal', '-', '--m', '48', '--k', '3', '--remove', 'elder'], list);
  expect(await counters(page, '#removal-member-grid')).toEqual(member.counters);
  expect(await positions(page, '#removal-member-grid', 'hit')).toEqual([...new Set(member.removed[0].positions)].sort((a, b) => a - b));
  await expect(page.locator('#removal-member-grid')).toHaveAttribute('data-false-negatives', member.false_negatives.join('\n'));

  // No words to remove: the lab finds a never-added word that reads present.
  const hazard = cli(['removal', '-', '--m', '48', '--k', '3'], list);
  expect(hazard.removed.length).toBe(1);
  expect(hazard.removed[0].member).toBe(false);
  await expect(page.locator('#removal-hazard-text')).toContainText(`${hazard.removed[0].text} was never added`);
  expect(await counters(page, '#removal-hazard-grid')).toEqual(hazard.counters);
  expect(await positions(page, '#removal-hazard-grid', 'zeroed')).toEqual(hazard.removed[0].zeroed);
  await expect(page.locator('#removal-lost')).toHaveAttribute('data-false-negatives', hazard.false_negatives.join('\n'));
  expect(hazard.false_negatives.length).toBeGreaterThan(0);
  for (const w of hazard.false_negatives) await expect(page.locator('#removal-lost')).toContainText(w);

  const narrow = cli(['removal', '-', '--m', '16', '--k', '3', '--width', '2', '--remove', 'elder'], list);
  expect(await counters(page, '#overflow-grid')).toEqual(narrow.counters);
  await expect(page.locator('#overflow-grid')).toHaveAttribute('data-saturated', String(narrow.saturated));
  await expect(page.locator('#overflow-grid')).toHaveAttribute('data-stuck', narrow.removed[0].stuck.join(','));
  expect(narrow.saturated).toBeGreaterThan(0);

  // Words typed into the remove box are removed in order, as --remove does.
  await page.fill('#removal-remove', 'oak\nnot-a-plant');
  const typed = cli(['removal', '-', '--m', '48', '--k', '3', '--remove', 'oak', '--remove', 'not-a-plant'], list);
  await expect(page.locator('#removal-lost')).toHaveAttribute('data-false-negatives', typed.false_negatives.join('\n'));
  expect(await counters(page, '#removal-hazard-grid')).toEqual(typed.counters);
  await expect(page).toHaveURL(/rm_remove=oak/);
});

test('combine: the OR, the AND and the estimates are the CLI\'s', async ({ page }) => {
  await open(page, '/#combine');
  const a = await page.inputValue('#combine-a');
  const b = await page.inputValue('#combine-b');
  const dir = mkdtempSync(join(tmpdir(), 'bloomlab-combine-'));
  writeFileSync(join(dir, 'a.txt'), a);
  writeFileSync(join(dir, 'b.txt'), b);
  const want = cli(['combine', join(dir, 'a.txt'), join(dir, 'b.txt'), '--m', '128', '--k', '3']);
  const union = page.locator('#combine-table tr[data-row="union"]');
  const both = page.locator('#combine-table tr[data-row="intersection"]');
  await expect(union).toContainText(`${thousands(want.union.bits_set)}${pct(want.union.fpr_measured)}`);
  expect(want.union.same_as_direct).toBe(true);
  await expect(union).toContainText('identical, bit for bit');
  await expect(both).toContainText(pct(want.intersection.fpr_measured));
  await expect(both).toContainText(`${thousands(want.intersection.direct_bits_set)} bits, ${pct(want.intersection.direct_fpr_measured)}`);
  expect(want.intersection.fpr_measured).toBeGreaterThanOrEqual(want.intersection.direct_fpr_measured);
  const est = want.estimates;
  const rows = page.locator('#combine-estimates tbody tr');
  await expect(rows.nth(0)).toContainText(`${est.a.toFixed(1)} ± ${est.a_se.toFixed(1)}`);
  await expect(rows.nth(2)).toContainText(`${est.union.toFixed(1)} ± ${est.union_se.toFixed(1)}`);
  await expect(rows.nth(3)).toContainText(String(want.n_intersection));
  // The drawn rows are the report's bits.
  const drawn = await page.$$eval('#combine-rows .strip', (ss) => ss.map((s) => [...s.children].map((c) => (c.classList.contains('on') ? 1 : 0))));
  expect(drawn).toEqual([want.bits.a, want.bits.b, want.bits.or, want.bits.and, want.bits.direct_and]);
});

test('BIP 37: N = 20,000 and P = 0.001 give the CLI\'s size and hash count', async ({ page }) => {
  await open(page, '/#sizes');
  const want = cli(['bip37', '--n', '20000', '--p', '0.001']);
  await expect(page.locator('#bip-out')).toHaveAttribute('data-size', String(want.size_bytes));
  await expect(page.locator('#bip-out')).toHaveAttribute('data-hashes', String(want.n_hash_funcs));
  expect(want.size_bytes).toBeLessThanOrEqual(36000);
  await expect(page.locator('#bip-out')).toContainText(`${thousands(want.size_bytes)} bytes`);
  await expect(page.locator('#bip-answer')).toContainText(`Does ${thousands(want.size_bytes)} bytes hold 20,000 items under 0.1%?`);
  await expect(page.locator('#bip-answer')).toContainText((want.fpr_expected * 100).toPrecision(5) + '%');
  // Past the cap the size stops at 36,000 bytes and says so.
  await page.fill('#bip-p', '0.00001');
  const capped = cli(['bip37', '--n', '20000', '--p', '0.00001']);
  expect(capped.capped_size).toBe(true);
  await expect(page.locator('#bip-out')).toHaveAttribute('data-size', String(capped.size_bytes));
  await expect(page.locator('#bip-out')).toContainText('capped at 36,000 bytes');
  await expect(page).toHaveURL(/bp_p=0.00001/);
  await expect(page.locator('#systems-table tbody tr')).toHaveCount(3);
  await expect(page.locator('#systems-table')).toContainText('RocksDB');
});

test('sizes: PostgreSQL\'s bloom index shows what `bloomlab pgbloom` reports, and refuses beside the input', async ({ page }) => {
  await open(page, '/#sizes');
  // The engine's WebAssembly libm may differ from glibc's in the last bits.
  const shareIs = async (want) => {
    await expect(page.locator('#pgb-out')).toHaveAttribute('data-share', /\d/);
    await expect.poll(async () => Math.abs(+(await page.locator('#pgb-out').getAttribute('data-share')) / want - 1))
      .toBeLessThan(1e-12);
  };
  const want = cli(['pgbloom', '--rows', '1000000']);
  await shareIs(want.share);
  await expect(page.locator('#pgb-out')).toContainText(`${want.signature_bits} bits (${want.signature_bytes} bytes)`);
  // The other figures of the list, as the CLI gives them (three digits).
  const sig3 = (x) => (x * 100).toPrecision(3) + '%';
  await expect(page.locator('#pgb-out [data-field="row_bits"]')).toHaveText(String(want.row_bits));
  await expect(page.locator('#pgb-out [data-field="fill"]')).toHaveText(sig3(want.fill));
  await expect(page.locator('#pgb-out [data-field="share_fill"]')).toHaveText(sig3(want.share_fill));
  await expect(page.locator('#pgb-out [data-field="rechecked"]')).toHaveText(thousands(Math.round(want.rows_rechecked)));
  await expect(page.locator('#pgb-answer')).toContainText(
    `${sig3(want.by_query_bits[0].probability)} draw 1 distinct bit and let ${sig3(want.by_query_bits[0].share)} of rows through`);
  await expect(page.locator('#pgb-answer')).toContainText(
    `reads all 1,000,000 signatures and then ${thousands(Math.round(want.rows_rechecked))} rows, ${(want.share * 100).toPrecision(3)}% of the table`);
  await page.fill('#pgb-length', '20');
  await page.fill('#pgb-col_bits', '3');
  const small = cli(['pgbloom', '--length', '20', '--col-bits', '3', '--rows', '1000000']);
  expect(small.signature_bits).toBe(32);
  await shareIs(small.share);
  await expect(page.locator('#pgb-out')).toHaveAttribute('data-signature-bits', '32');
  await expect(page).toHaveURL(/pg_length=20/);
  await page.fill('#pgb-columns', '40');
  await expect(page.locator('#pgb-columns-error')).toContainText('Indexed columns');
  await expect(page.locator('#pgb-columns-error')).toContainText('32');
  await expect(page.locator('#pgb-columns')).toHaveValue('40');
});

// The engine's figures for RocksDB's 10 bits a key in its own layout
// (cache_line_filter::fpr_for and k_best_block at m in whole 512-bit
// blocks), the same numbers tests/lab/test_tune.cpp checks in the native
// build; no CLI command reports the cache-line layout's rate at a given m.
const rocksdb = { 1000000: { fpr: 0.0095695480690166593, k: 7 }, 5000: { fpr: 0.0094199246292273921, k: 7 } };

test('sizes: RocksDB\'s 10 bits a key is rated with its cache-line layout, k shown', async ({ page }) => {
  await open(page, '/#sizes');
  for (const n of [1000000, 5000]) {
    await page.fill('#systems-n', thousands(n));
    const row = page.locator('#systems-table tbody tr', { hasText: 'RocksDB' });
    // The table redraws a moment after the input: wait for this n's rate.
    await expect.poll(async () => Math.abs(Number(await row.getAttribute('data-fpr-cache-line')) - rocksdb[n].fpr))
      .toBeLessThan(1e-15);
    await expect(row).toHaveAttribute('data-k-cache-line', String(rocksdb[n].k));
    await expect(row.locator('td').last()).toHaveText(`${(rocksdb[n].fpr * 100).toPrecision(3)}%, k = ${rocksdb[n].k}`);
    // Below the split block's rate at the same size (1.05%).
    await expect(row.locator('td').nth(4)).toHaveText('1.05%');
  }
  await expect(page.locator('#systems-table thead')).toContainText('Cache line (RocksDB\'s)');
});

test('sizes: the privacy dial shows the decoys `bloomlab attack privacy` measures for the same N, P and block', async ({ page }) => {
  await open(page, '/#sizes');
  const want = cli(['attack', 'privacy', '--n', '20000', '--p', '0.001', '--txs', '3000', '--own', '2', '--filters', '2']);
  await expect(page.locator('#priv-steps')).toHaveAttribute('data-decoys', want.steps.map((s) => s.decoys).join(','));
  await expect(page.locator('#priv-steps tbody tr')).toHaveCount(2);
  await expect(page.locator('#priv-dial tbody tr')).toHaveCount(want.dial.length);
  // Every row of the dial: its P, filter and decoys a block are the CLI's.
  expect(await page.locator('#priv-dial tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(0, 3).map((c) => c.textContent))))
    .toEqual(want.dial.map((d) => [String(d.p), `${thousands(d.bytes)} bytes, k = ${d.n_hash_funcs}`, d.decoys_expected.toFixed(1)]));
  expect(await page.locator('#priv-steps tbody td:nth-child(3)').allTextContents())
    .toEqual(want.steps.map((s) => s.decoys_expected.toFixed(2)));
  await expect(page.locator('#priv-answer')).toContainText(`${thousands(want.bytes)} bytes`);
  // A client asking for a noisier filter: more decoys, from the same engine.
  await page.fill('#bip-n', '20');
  await page.fill('#bip-p', '0.05');
  await page.fill('#priv-filters', '3');
  const noisy = cli(['attack', 'privacy', '--n', '20', '--p', '0.05', '--filters', '3']);
  await expect(page.locator('#priv-steps')).toHaveAttribute('data-decoys', noisy.steps.map((s) => s.decoys).join(','));
  expect(noisy.steps[0].decoys).toBeGreaterThan(noisy.steps[2].decoys);
  await expect(page).toHaveURL(/pv_filters=3/);
  // Refused beside the input, the rest of the section kept.
  await page.fill('#priv-own', '5000');
  await expect(page.locator('#priv-own-error')).toContainText('5000');
  await expect(page.locator('#priv-own')).toHaveValue('5000');
  await expect(page.locator('#priv-steps')).toHaveClass(/stale/);
});

test('cuckoo: the chain is stepped with the keyboard, slot by slot', async ({ page }) => {
  await open(page, '/#cuckoo');
  const steps = page.locator('#cuckoo-steps li');
  const count = await steps.count();
  expect(count).toBeGreaterThan(1);
  await expect(page.locator('#cuckoo-table')).toHaveAttribute('data-step', '0');
  // The insert followed moves others between two different buckets, and the
  // table is drawn as it was before it: the first write's slot still holds
  // the fingerprint that write pushes out.
  await expect(page.locator('#cuckoo-insert-text')).toContainText(/buckets \d+ and \d+/);
  const first = (await steps.nth(0).textContent()).match(/Fingerprint ([0-9a-f]+) goes into bucket (\d+), slot (\d+), pushing out ([0-9a-f]+)/);
  expect(first).not.toBeNull();
  const [, mover, b0, s0, pushed] = first;
  expect(pushed).not.toBe(mover);
  const firstSlot = page.locator(`#cuckoo-table .slot[data-slot="${b0}:${s0}"]`);
  await expect(firstSlot).toHaveText(new RegExp(`${pushed}$`));
  await page.focus('#cuckoo-next');
  for (let i = 1; i <= count; i++) {
    await page.keyboard.press('Enter');
    await expect(page.locator('#cuckoo-table')).toHaveAttribute('data-step', String(i));
    const text = await steps.nth(i - 1).textContent();
    const [, bucket, slot] = text.match(/bucket (\d+), slot (\d+)/);
    await expect(page.locator('#cuckoo-table .slot.now')).toHaveAttribute('data-slot', `${bucket}:${slot}`);
    await expect(page.locator('#cuckoo-step-text')).toContainText(`Step ${i} of ${count}`);
    if (i === 1) await expect(firstSlot).toHaveText(new RegExp(`${mover}$`));
  }
  await expect(page).toHaveURL(new RegExp(`ck_step=${count}`));
  // The last step lands in a free slot; the table shows the fingerprint there.
  const last = await steps.nth(count - 1).textContent();
  const fp = last.match(/Fingerprint ([0-9a-f]+)/)[1];
  await expect(page.locator("#cuckoo-table .slot.now")).toHaveText(new RegExp(`${fp}$`));
  // Deleting: a member is fine; a never-inserted word that matches takes a
  // member's fingerprint with it.
  await expect(page.locator('#cuckoo-deleted li.member')).toHaveCount(1);
  await expect(page.locator('#cuckoo-deleted li.false-positive')).toHaveCount(1);
  await expect(page.locator('#cuckoo-lost')).toContainText('answer');
});

test('growing: the scalable filter adds stages and its measured rate agrees with what its bits predict', async ({ page }) => {
  await open(page, '/#growing');
  const rows = page.locator('#growing-table tbody tr');
  expect(await rows.count()).toBeGreaterThan(2);
  const stages = await page.getAttribute('#growing-summary', 'data-stages');
  expect(+stages).toBe(await rows.count());
  await expect(page.locator('#growing-chart canvas')).toHaveCount(1);
  await expect(page.locator('#growing-bound')).toContainText('The measured share agrees');
});

test('the new sections restore from the URL', async ({ page }) => {
  await open(page, '/?rm_m=40&rm_k=4&ov_w=1&ck_b=16&ck_f=12&cb_m=64&cb_k=2&gr_n=1000&gr_n0=100&bp_n=30000&bp_p=0.01&sy_n=5000');
  await expect(page.locator('#removal-m')).toHaveValue('40');
  await expect(page.locator('#removal-hazard-grid .counter')).toHaveCount(40);
  await expect(page.locator('#overflow-width')).toHaveValue('1');
  await expect(page.locator('#cuckoo-table .bucket')).toHaveCount(16);
  await expect(page.locator('#cuckoo-fingerprint_bits')).toHaveValue('12');
  await expect(page.locator('#combine-rows .strip').first().locator('.cell')).toHaveCount(64);
  await expect(page.locator('#combine-k')).toHaveValue('2');
  await expect(page.locator('#growing-n')).toHaveValue('1000');
  await expect(page.locator('#growing-summary')).toContainText('planned for 100 items');
  const bip = cli(['bip37', '--n', '30000', '--p', '0.01']);
  await expect(page.locator('#bip-out')).toHaveAttribute('data-size', String(bip.size_bytes));
  await expect(page.locator('#systems-n')).toHaveValue('5000');
});

test('refusals show beside the input that caused them', async ({ page }) => {
  await open(page, '/');
  await page.fill('#removal-m', '300');
  await expect(page.locator('#removal-m-error')).toContainText("m: '300'");
  await expect(page.locator('#removal-m-error')).toContainText('8 to 256');
  await page.fill('#overflow-width', '9');
  await expect(page.locator('#overflow-width-error')).toContainText("'9'");
  await page.fill('#cuckoo-buckets', '6');
  await expect(page.locator('#cuckoo-buckets-error')).toContainText("'6'");
  await page.fill('#combine-k', '0');
  await expect(page.locator('#combine-k-error')).toContainText("'0'");
  await page.fill('#growing-n0', '0');
  await expect(page.locator('#growing-n0-error')).toContainText("'0'");
  await page.fill('#bip-p', '2');
  await expect(page.locator('#bip-p-error')).toContainText("'2'");
  await page.fill('#systems-n', 'many');
  await expect(page.locator('#systems-n-error')).toContainText("'many'");
  // The text stays as typed.
  await expect(page.locator('#bip-p')).toHaveValue('2');
});

test('tune draws the blocked filter beside the classic one', async ({ page }) => {
  await open(page, '/#tune');
  await expect(page.locator('#tune-out')).toContainText('Blocked filter (512-bit blocks), same m');
  await expect(page.locator('#tune-chart-n .u-legend')).toContainText('blocked, 512-bit');
  await expect(page.locator('#tune-chart-m .u-legend')).toContainText('blocked, 512-bit');
});
