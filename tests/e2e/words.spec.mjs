// Never wrong in words: each sentence agrees with the numbers it states
// (checked against the CLI where it states one), counts of one are singular,
// and messages name the inputs as the page labels them.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bloomlab, cli, thousands } from './cli.mjs';
import { domText } from './dom_text.mjs';

// The page's rate with significant digits (format.js percentSig, above 1e-4%).
function sig(rate, digits) {
  return (rate * 100).toPrecision(digits) + '%';
}

// "1 words", "1 hashes", ... anywhere in the page's text.
const wrongSingular = /(^|[^\d.,])1 (words|hashes|items|bytes|bits|stages|lines|steps)\b/;

test('a count of one is singular in every section', async ({ page }) => {
  await open(page, '/#cuckoo');
  await page.fill('#cuckoo-items', 'amber');
  await expect(page.locator('#cuckoo-summary')).toContainText('1 of 1 word went in');
  await page.fill('#removal-items', 'elder');
  await expect(page.locator('#removal-member-text')).toContainText('1 word went in');
  await page.fill('#combine-a', 'x');
  await page.fill('#combine-b', 'y');
  await expect(page.locator('#combine')).toContainText('1 word');
  await page.fill('#bip-n', '1,000,000');
  const want = cli(['bip37', '--n', '1000000', '--p', '0.001']);
  expect(want.k_best_same_size).toBe(1);
  await expect(page.locator('#bip-answer')).toContainText(`with 1 hash would give ${sig(want.fpr_best_k_same_size, 5)}`);
  const text = await page.locator('body').evaluate(domText);
  expect(text).toContain('1 of 1 word went in');  // read from the DOM: sections off screen count too
  expect(text).not.toMatch(wrongSingular);
});

test('section 3 writes a rate above one half as about 1 in x, matching the rate', async ({ page }) => {
  await open(page, '/');
  await page.check('input[name="mode"][value="n_m"]');
  await page.fill('#tune-m', '400,000');
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', '400000');
  const k = await page.locator('#tune-out').getAttribute('data-k');
  const want = cli(['analyze', '--m', '400000', '--n', '1000000', '--k', k]);
  expect(want.fpr_approx).toBeGreaterThan(0.5);
  const x = +(1 / want.fpr_approx).toPrecision(2);
  await expect(page.locator('#tune-out')).toContainText(`${sig(want.fpr_approx, 4)} (about 1 in ${x})`);
  await expect(page.locator('#tune-out')).not.toContainText(/\b1 in 1\)/);
});

test('section 5: removing a word twice says it was removed already', async ({ page }) => {
  await open(page, '/#removal');
  await page.fill('#removal-remove', 'elder\nelder');
  const text = page.locator('#removal-hazard-text');
  await expect(text).toContainText('elder was added; removing it lowers counters');
  await expect(text).toContainText('it is not in the filter now (it was removed already)');
  await expect(text).not.toContainText('never added');
});

test('section 9 says how far over the target a BIP 37 filter is, and which cap did it', async ({ page }) => {
  await open(page, '/#sizes');
  const answer = page.locator('#bip-answer');
  // The BIP's own example: 9 hashes where 10 are best, a hair over.
  const own = cli(['bip37', '--n', '20000', '--p', '0.001']);
  await expect(answer).toContainText(`Not quite: with ${own.n_hash_funcs} hashes it gives ${sig(own.fpr_expected, 5)}, a hair over.`);
  await expect(answer).toContainText(`cuts its hash count down to a whole number, ${own.n_hash_funcs}, where ${own.k_best_same_size} is best`);
  // A million items: the size cap leaves under one hash, cut to 0.
  await page.fill('#bip-n', '1,000,000');
  const big = cli(['bip37', '--n', '1000000', '--p', '0.001']);
  expect(big.n_hash_funcs).toBe(0);
  expect(big.capped_size).toBe(true);
  await expect(page.locator('#bip-out')).toHaveAttribute('data-hashes', '0');
  await expect(page.locator('#bip-out [data-field="hashes"]')).toContainText('matches every item');
  await expect(answer).toContainText(`No: with 0 hashes it gives ${sig(big.fpr_expected, 5)}, about ${(+(big.fpr_expected / 0.001).toPrecision(2)).toLocaleString('en-US')} times the target.`);
  await expect(answer).toContainText('caps a filter at 36,000 bytes');
  await expect(answer).toContainText('cut to 0');
  await expect(answer).not.toContainText('a hair');
  // P = 1e-9: a million times over, not "not quite".
  await page.fill('#bip-n', '20,000');
  await page.fill('#bip-p', '1e-9');
  const tiny = cli(['bip37', '--n', '20000', '--p', '1e-9']);
  const times = (+(tiny.fpr_expected / 1e-9).toPrecision(2)).toLocaleString('en-US');
  await expect(answer).toContainText(`No: with ${tiny.n_hash_funcs} hashes it gives ${sig(tiny.fpr_expected, 5)}, about ${times} times the target.`);
  await expect(answer).toContainText('caps a filter at 36,000 bytes');
  await expect(answer).not.toContainText('Not quite');
});

test('messages name the inputs by their labels, not the engine fields', async ({ page }) => {
  await open(page, '/#growing');
  await page.fill('#growing-n0', '0');
  await expect(page.locator('#growing-n0-error')).toContainText(/^Planned n: /);
  await page.fill('#cuckoo-fingerprint_bits', '99');
  await expect(page.locator('#cuckoo-fingerprint_bits-error')).toContainText(/^Fingerprint bits: '99'/);
  await page.fill('#combine-a', Array.from({ length: 201 }, (_, i) => `a${i}`).join('\n'));
  await expect(page.locator('#combine-a-error')).toContainText(/^List A, one a line: 201 words; the limit is 200/);
  for (const id of ['#growing-n0-error', '#cuckoo-fingerprint_bits-error', '#combine-a-error']) {
    await expect(page.locator(id)).not.toContainText(/^(n0|fingerprint_bits|a): /);
  }
});

test('a failed cuckoo chain of hundreds of kicks is shortened, with Next step beside the table', async ({ page }) => {
  await open(page, '/#cuckoo');
  await page.fill('#cuckoo-items', Array.from({ length: 60 }, (_, i) => `w${i}`).join('\n'));
  await expect(page.locator('#cuckoo-summary')).toContainText('too full');
  const failed = page.locator('#cuckoo-insert option', { hasText: '(failed)' }).first();
  await page.selectOption('#cuckoo-insert', await failed.getAttribute('value'));
  const stepText = page.locator('#cuckoo-step-text');
  await expect(stepText).toContainText(/Step 0 of \d+/);
  const length = +(await stepText.textContent()).match(/Step 0 of (\d+)/)[1];
  expect(length).toBeGreaterThan(100);
  const real = page.locator('#cuckoo-steps li:not(.gap)');
  const gap = page.locator('#cuckoo-steps li.gap');
  await expect(gap).toHaveCount(1);
  await expect(gap).toHaveText(`… ${length - (await real.count())} more steps …`);
  await expect(real.last()).toHaveAttribute('value', String(length));
  const table = await page.locator('#cuckoo-table').boundingBox();
  const next = await page.locator('#cuckoo-next').boundingBox();
  expect(next.y - (table.y + table.height)).toBeLessThan(800);
  // Stepping past the first few shows the current step and names both runs left out.
  await page.focus('#cuckoo-next');
  for (let i = 0; i < 8; i++) await page.keyboard.press('Enter');
  await expect(page.locator('#cuckoo-table')).toHaveAttribute('data-step', '8');
  await expect(page.locator('#cuckoo-steps li[aria-current="step"]')).toHaveAttribute('value', '8');
  await expect(gap).toHaveCount(2);
});

test('section 6 refuses buckets as its hint says: a power of two, 2 to 64', async ({ page }) => {
  await open(page, '/#cuckoo');
  await expect(page.locator('#cuckoo-buckets ~ .hint')).toHaveText('a power of two, 2 to 64');
  const error = page.locator('#cuckoo-buckets-error');
  await page.fill('#cuckoo-buckets', '48');
  await expect(error).toHaveText("Buckets: '48' is not a power of two; the nearest are 32 and 64");
  await page.fill('#cuckoo-buckets', '1024');
  await expect(error).toContainText('from 2 to 64');
  await page.fill('#cuckoo-buckets', '3');
  await expect(error).toHaveText("Buckets: '3' is not a power of two; the nearest are 2 and 4");
  await expect(error).not.toContainText('1024');
  await page.fill('#cuckoo-buckets', '64');
  await expect(error).toHaveText('');
  await expect(page.locator('#cuckoo-summary')).toContainText('of the 256 slots');
});

test('section 4 refuses a power-of-two m that is not one and a prime m that is not prime', async ({ page }) => {
  await open(page, '/#schemes');
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
  await page.fill('#schemes-pow', '1000');
  await expect(page.locator('#schemes-pow-error')).toHaveText("Bits: power of two: '1000' is not a power of two; the nearest are 512 and 1,024");
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(0);
  await page.fill('#schemes-pow', '1,024');
  await page.fill('#schemes-prime', '1024');
  await expect(page.locator('#schemes-prime-error')).toHaveText("Bits: prime: '1024' is not prime; the nearest are 1,021 and 1,031");
  await expect(page.locator('#schemes-pow-error')).toHaveText('');
  await page.fill('#schemes-prime', '1031');
  await expect(page.locator('#schemes-prime-error')).toHaveText('');
  await expect(page.locator('#schemes-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
});

test('section 2 offers the largest allowed k when the best k is past it', async ({ page }) => {
  await open(page, '/#measure');
  await page.fill('#measure-list', Array.from({ length: 100 }, (_, i) => `w${i}`).join('\n'));
  await page.fill('#measure-m', '20,000');
  const want = cli(['analyze', '--m', '20000', '--n', '100', '--k', '7']);
  expect(want.k_optimal).toBeGreaterThan(64);
  const kbest = page.locator('#measure-kbest');
  await expect(kbest).toHaveText(`for your list, (20,000/100)·ln 2 = ${want.k_optimal.toFixed(2)}. That is past the largest k allowed here, 64: try k = 64.`);
  // The offer is taken, one more is refused.
  await page.fill('#measure-k', '64');
  await expect(page.locator('#measure-out')).toHaveAttribute('data-runs', /\d+/);
  await expect(page.locator('#measure-k-error')).toHaveText('');
  await page.fill('#measure-k', '65');
  await expect(page.locator('#measure-k-error')).toContainText("'65' is out of range");
  // Within the limit, no offer.
  await page.fill('#measure-k', '7');
  await page.fill('#measure-m', '2,000');
  await expect(kbest).toHaveText(/= 13\.86\.$/);
});

test("the first question's reading follows section 1's k", async ({ page }) => {
  await open(page, '/');
  const fact = page.locator('[data-fact="member"]');
  await expect(fact).toHaveText('cherry was added and reads 1, 1, 1.');
  await page.fill('#stage-k', '5');
  await expect(page.locator('#stage-summary')).toContainText('with 5 hashes each');
  await expect(fact).toHaveText('cherry was added and reads 1, 1, 1, 1, 1.');
  await page.fill('#stage-k', '1');
  await expect(fact).toHaveText('cherry was added and reads 1.');
});

// ---- section 8: the scalable filter's words against the CLI's own filter ----

// A scalable filter built by the CLI from item-1..item-n, as section 8 builds
// it, with its probes counted by `bloomlab query`. The CLI's report gives
// each stage's fill, fpr_current (1 - prod (1 - fill^k)) and fpr_bound (the
// targets compounded, which the page calls the plan).
function cliScalable({ n, n0, p0, s }) {
  const dir = mkdtempSync(join(tmpdir(), 'bloomlab-growing-'));
  try {
    const file = join(dir, 'g.blf');
    const items = Array.from({ length: n }, (_, i) => `item-${i + 1}`).join('\n') + '\n';
    const built = cli(['build', '--kind', 'scalable', '--n', String(n0), '--p', String(p0), '--growth', String(s), '-o', file], items);
    const probes = Array.from({ length: 10_000 }, (_, i) => `probe-${i + 1}`).join('\n') + '\n';
    // query exits 1 when any answer is no, as here: read its output anyway.
    const q = spawnSync(bloomlab, ['query', file, '-', '--json'], { input: probes, encoding: 'utf8', maxBuffer: 1 << 24 });
    const maybes = JSON.parse(q.stdout).filter((a) => a.maybe).length;
    return { built, measured: maybes / 10_000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function growingCase(page, { n, n0, p0, s, target }) {
  const want = cliScalable({ n, n0, p0, s });
  const { built, measured } = want;
  await page.fill('#growing-p0', target);
  await page.fill('#growing-s', String(s));
  const summary = page.locator('#growing-summary');
  const words = page.locator('#growing-bound');
  await expect(page.locator('#growing-table tbody tr')).toHaveCount(built.stages.length);
  await expect(summary).toContainText(`has grown to ${built.stages.length} stage`);
  // The stages: m, k, Held and the share of 1s as the CLI's filter has them
  // (polled: the previous case's table may have as many rows until it redraws).
  const rows = () => page.locator('#growing-table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(3, 7).map((c) => c.textContent)));
  await expect.poll(rows).toEqual(built.stages.map((st) => [thousands(st.m), String(st.k), thousands(st.n), sig(st.fill, 3)]));
  // Held adds up to the items the CLI's filter holds; the rest are explained.
  const skipped = built.lines - built.items;
  await expect(page.locator('#growing-held')).toHaveAttribute('data-held', String(built.items));
  if (skipped > 0) {
    await expect(page.locator('#growing-held')).toContainText(`${thousands(skipped)} item${skipped === 1 ? '' : 's'} of ${thousands(n)} already read present`);
    await expect(page.locator('#growing-held')).toContainText(`So Held adds up to ${thousands(built.items)}.`);
  }
  await expect(summary).toContainText(`measured ${sig(measured, 3)} (95% interval `);
  await expect(summary).not.toContainText('bound');
  // What the bits predict is the CLI's fpr_current; the plan is its fpr_bound,
  // and the words say which side of the plan the measured rate lies.
  await expect(words).toContainText(`Its bits predict ${sig(built.fpr_current, 3)}`);
  await expect(words).toContainText(`The plan aimed at ${sig(built.fpr_bound, 3)}, its target rates compounded; ` +
    `the measured rate is ${measured <= built.fpr_bound ? 'under' : 'above'} it.`);
  return want;
}

test('section 8: the plan, what the bits predict and the measured rate, in true words; Held explained; stage 1 sized as section 3 sizes it', async ({ page }) => {
  await open(page, '/#growing');
  const size = cli(['size', '--n', '200', '--p', '0.01']);
  const plain = await growingCase(page, { n: 3000, n0: 200, p0: 0.01, s: 2, target: '1%' });
  expect(plain.built.stages[0].m).toBe(size.m);
  expect(plain.built.lines - plain.built.items).toBeGreaterThan(0);
  await expect(page.locator('#growing-summary')).toHaveAttribute('data-first-m', String(size.m));
  await expect(page.locator('#growing-summary')).toContainText(`${thousands(size.m)} bits and ${size.k} hashes`);
  // Section 3, for the same n and p, gives the same m.
  await page.fill('#tune-n', '200');
  await page.fill('#tune-p', '1%');
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(size.m));
  // Growth 1 and a 50% target: the two cases the old words got wrong.
  const one = await growingCase(page, { n: 3000, n0: 200, p0: 0.01, s: 1, target: '1%' });
  expect(one.measured).toBeGreaterThan(one.built.fpr_bound);
  const half = await growingCase(page, { n: 3000, n0: 200, p0: 0.5, s: 2, target: '50%' });
  expect(half.measured).toBeGreaterThan(half.built.fpr_bound);
  // At 50% each item taken sets a fresh bit: stage 1 ends 200/289 full.
  expect(half.built.stages[0]).toMatchObject({ m: 289, k: 1, n: 200 });
  await expect(page.locator('#growing-bound')).toContainText(`stage 1 is ${sig(200 / 289, 3)} 1s where its size assumed about half`);
});

test('section 9 and section 3\'s BIP 37 preset give the same filter and the same rate', async ({ page }) => {
  await open(page, '/#sizes');
  const bip = cli(['bip37', '--n', '20000', '--p', '0.001']);
  await expect(page.locator('#bip-out [data-field="rate"]')).toHaveText(sig(bip.fpr_expected, 5));
  await page.getByRole('button', { name: /BIP 37/ }).click();
  await expect(page.locator('#tune-out')).toHaveAttribute('data-m', String(bip.size_bytes * 8));
  await expect(page.locator('#tune-out')).toHaveAttribute('data-k', String(bip.n_hash_funcs));
  // Section 3's formula line is section 9's expected rate, to its 4 digits.
  await expect(page.locator('#tune-out [data-field="False positives, formula"]')).toContainText(sig(bip.fpr_expected, 4));
});

test('URL choices are checked like typed input: a cuckoo step, an insert, the prime box', async ({ page }) => {
  await open(page, '/?ck_step=abc&tu_prime=yes#cuckoo');
  await expect(page.locator('#cuckoo-step-url')).toContainText("Step: 'abc' in the link is not a whole number of steps; showing step 0.");
  await expect(page.locator('#cuckoo-table')).toHaveAttribute('data-step', '0');
  await expect(page.locator('#tune-mode-url')).toContainText("'yes' in the link is not allowed; allowed: 0, 1. Using 0.");
  await expect(page.locator('#tune-prime')).not.toBeChecked();
  await open(page, '/?ck_step=9999&ck_ins=nosuchword#cuckoo');
  await expect(page.locator('#cuckoo-step-url')).toContainText("Insert to follow: 'nosuchword' in the link is not one of the words");
  await expect(page.locator('#cuckoo-step-url')).toContainText(/Step: 9,999 in the link is past this chain's \d+ steps?; showing step \d+\./);
  const last = (await page.locator('#cuckoo-step-url').textContent()).match(/showing step (\d+)\./)[1];
  await expect(page.locator('#cuckoo-table')).toHaveAttribute('data-step', last);
  // A good step from the link is taken as it is, with no message.
  await open(page, '/?ck_step=1#cuckoo');
  await expect(page.locator('#cuckoo-table')).toHaveAttribute('data-step', '1');
  await expect(page.locator('#cuckoo-step-url')).toHaveText('');
});

test('section 1 states fill^k for its own bits beside the formula and the exact value, as the CLI gives them', async ({ page }) => {
  await open(page, '/');
  const dir = mkdtempSync(join(tmpdir(), 'bloomlab-stage-'));
  try {
    const file = join(dir, 's.blf');
    // Section 1's filter: the five fruit in 32 bits with 3 hashes.
    const built = cli(['build', '--m', '32', '--k', '3', '-o', file], 'apple\nbanana\ncherry\ngrape\nmango\n');
    const formulas = cli(['analyze', '--m', '32', '--n', '5', '--k', '3']);
    await expect(page.locator('#stage-summary')).toContainText(`set ${Math.round(built.fill * 32)} of the 32 bits (${(built.fill * 100).toFixed(1)}%); ` +
      `the fill formula below expects ${(formulas.fill_expected * 100).toFixed(1)}%.`);
    await expect(page.locator('#stage-odds')).toHaveText('A word never added reads all 1s when each of its 3 bits lands on a 1: in these bits, ' +
      `fill^3 = ${sig(built.fpr_current, 3)}. Over every filter of 5 items in 32 bits, the formula gives ` +
      `${sig(formulas.fpr_approx, 3)} and the exact value ${sig(formulas.fpr_exact, 3)}.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The formulas are stated where they are first used, in section 1.
  const text = await page.locator('#stage').evaluate(domText);
  expect(text).toContain('1 − (1 − 1/m)kn');
  expect(text).toContain('(1 − e−kn/m)k');
});
