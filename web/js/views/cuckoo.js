// Section 6: a small cuckoo filter, drawn as buckets of four fingerprint
// slots. The engine's cuckoo_stage operation inserts the words, records each
// insert's relocations and the table just before the insert followed,
// applies the deletes and answers the lookups; the view steps through that
// insert's chain, drawing the table as each write leaves it, and shows what
// the deletes did.
import { limits, run } from '../engine.js';
import * as state from '../state.js';
import { capped, checkKind, checkRange, clearErrors, debounce, drawingRange, engineDefault, isPowerOfTwo, label, lines, nearestPowersOfTwo, showError } from '../form.js';
import { count, escapeHtml, list, percent, percentSig, plural, thousands } from '../format.js';

export const defaultItems = ['amber', 'azure', 'beige', 'black', 'blue', 'brown', 'coral', 'cream',
  'cyan', 'gold', 'green', 'grey', 'indigo', 'ivory', 'jade', 'khaki', 'lemon', 'lilac', 'lime',
  'navy', 'ochre', 'olive', 'orange', 'peach', 'pink', 'plum', 'red', 'rust'];
// The drawing's 8 buckets; its fingerprint size is the engine's.
let defaults = null;
const probes = 200;  // probe-1..probe-200 are searched for a stranger

// Fingerprints pushed out of their slot to make room: every write of the
// chain but the last, or all of them when the insert failed.
function evictions(x) {
  return x.ok ? Math.max(0, x.chain.length - 1) : x.chain.length;
}

// A long chain (a failed insert runs to 500 kicks) lists its first and last
// few steps and those around the current one; each run left out is one
// entry, -(how many), so "Next step" stays beside the table.
const edgeSteps = 4;
function shownSteps(length, step) {
  const keep = (j) => j < edgeSteps || j >= length - edgeSteps || Math.abs(j - (step - 1)) <= 1;
  const out = [];
  for (let j = 0; j < length; j++) {
    if (keep(j)) out.push(j);
    else if (out.length && out[out.length - 1] < 0) out[out.length - 1]--;
    else out.push(-1);
  }
  // A run of one is shown rather than named.
  return out.map((j, i) => (j === -1 ? out[i - 1] + 1 : j));
}

export function mount(root) {
  const form = root.querySelector('#cuckoo-form');
  const $ = (sel) => root.querySelector(sel);
  const stored = state.get('ck_items', null);
  $('#cuckoo-items').value = stored === null ? defaultItems.join('\n') : stored;
  $('#cuckoo-deletes').value = state.get('ck_del', '');
  defaults = { buckets: '8', fingerprint_bits: engineDefault('cuckoo', 'fingerprint_bits') };
  const maxBuckets = drawingRange('cuckoo', 'buckets')[1];
  for (const f of Object.keys(defaults)) $(`#cuckoo-${f}`).value = state.get(`ck_${f === 'buckets' ? 'b' : 'f'}`, defaults[f]);
  // The link's step and insert, checked like typed input: a step is a whole
  // number from 0 to the chain's length, an insert one of the words; a bad
  // one falls back (step 0, the default insert) with a message by the steps.
  const urlStep = state.get('ck_step', '0');
  const s = {
    follow: state.get('ck_ins', null),   // which insert's chain, by text
    step: /^\d{1,6}$/.test(urlStep) ? +urlStep : 0,
    report: null,
    // Refusals of the link's values, shown once the chain they refer to is known.
    urlCheck: { step: urlStep, ins: state.get('ck_ins', null), pending: true },
  };
  const urlRefused = [];
  if (!/^\d{1,6}$/.test(urlStep)) {
    urlRefused.push(`Step: '${state.shown(urlStep)}' in the link is not a whole number of steps; showing step 0.`);
    s.urlCheck.step = '0';
  }

  function save() {
    const text = $('#cuckoo-items').value;
    state.set({
      ck_items: text === defaultItems.join('\n') ? null : text,
      ck_del: $('#cuckoo-deletes').value,
      ck_b: $('#cuckoo-buckets').value === defaults.buckets ? null : $('#cuckoo-buckets').value,
      ck_f: $('#cuckoo-fingerprint_bits').value === defaults.fingerprint_bits ? null : $('#cuckoo-fingerprint_bits').value,
      ck_ins: s.follow,
      ck_step: s.step ? String(s.step) : null,
    });
  }

  function hex(fp, bits) {
    return fp === null ? '' : fp.toString(16).padStart(Math.ceil(bits / 4), '0');
  }

  function render() {
    clearErrors(form);
    const words = capped(form, 'cuckoo', 'items', lines($('#cuckoo-items').value), limits().items);
    // The drawing's own bounds: 2 to 64 buckets, a power of two (the engine
    // takes more, which would not fit on the page).
    const [leastBuckets] = drawingRange('cuckoo', 'buckets');
    const okB = checkRange(form, 'cuckoo', 'buckets') &&
      checkKind(form, 'cuckoo', 'buckets', 'a power of two', isPowerOfTwo, (v) => nearestPowersOfTwo(v).filter((x) => x >= leastBuckets && x <= maxBuckets));
    const okF = checkRange(form, 'cuckoo', 'fingerprint_bits');
    if (!words.length) {
      $('#cuckoo-items-error').textContent = `${label(form, 'cuckoo', 'items')}: empty; add at least one word, one a line`;
      $('#cuckoo-items').setAttribute('aria-invalid', 'true');
    }
    save();
    if (!okB || !okF || !words.length) return stale(true);
    const base = { items: words, buckets: $('#cuckoo-buckets').value, fingerprint_bits: $('#cuckoo-fingerprint_bits').value };
    // The inserts alone: the table before any delete, each insert's chain,
    // the table before the insert followed (the one chosen, else the
    // engine's pick), and (the engine looks through probe-1..probe-N) a
    // never-inserted word that matches.
    const followed = s.follow === null ? -1 : words.indexOf(s.follow);
    const before = run('cuckoo_stage', { ...base, probes, ...(followed >= 0 ? { follow: followed } : {}) });
    if (showError(form, 'cuckoo', before, 'items')) return stale(true);
    const stranger = before.stranger;
    let deletes = capped(form, 'cuckoo', 'deletes', lines($('#cuckoo-deletes').value), limits().items);
    const chosen = deletes.length > 0;
    if (!chosen) deletes = [words[0], ...(stranger ? [stranger] : [])];
    const after = run('cuckoo_stage', { ...base, deletes, queries: [...new Set([...deletes, ...words])].slice(0, limits().items) });
    if (showError(form, 'cuckoo', after, 'deletes')) return stale(true);
    stale(false);
    s.report = before;
    summary(before);
    chooser(before);
    drawChain();
    drawDeletes(after, chosen, stranger);
  }

  function stale(on) {
    for (const id of ['#cuckoo-table', '#cuckoo-summary']) $(id).classList.toggle('stale', on);
    return null;
  }

  function summary(r) {
    const failed = r.inserts.filter((x) => !x.ok);
    let text = `${thousands(r.inserts.length - failed.length)} of ${count(r.inserts.length, 'word')} went in: ` +
      `${percent(r.load_factor, 0)} of the ${thousands(r.buckets_count * r.slots)} slots are full. ` +
      `With ${r.fingerprint_bits}-bit fingerprints a stranger matches with chance at most 2·4 / 2^${r.fingerprint_bits} = ${percentSig(r.fpr_bound)}.`;
    if (failed.length) {
      text += ` The table was too full for ${list(failed.map((x) => escapeHtml(x.text)))}: ` +
        'a failed insert is undone, so every word already in stays found.';
    }
    $('#cuckoo-summary').innerHTML = text;
  }

  function chooser(r) {
    const select = $('#cuckoo-insert');
    const texts = r.inserts.map((x) => x.text);
    if (s.follow !== null && !texts.includes(s.follow)) {
      if (s.urlCheck.pending) urlRefused.push(`${label(root, 'cuckoo', 'insert')}: '${state.shown(s.follow)}' in the link is not one of the words; following the default insert.`);
      s.follow = null;
    }
    select.innerHTML = r.inserts.map((x, i) =>
      `<option value="${i}">${escapeHtml(x.text)}${evictions(x) ? ` (${evictions(x)} moved)` : ''}${x.ok ? '' : ' (failed)'}</option>`).join('');
    select.value = String(current());
  }

  // The insert followed: the one asked for, else the engine's pick (the
  // latest that moved others between two different buckets).
  function current() {
    return s.report.follow;
  }

  // The table after the first `step` writes of the followed insert's chain:
  // the engine's table before that insert, each write put in its slot.
  function tableAt(r, chain, step) {
    const table = r.follow_before.map((bucket) => bucket.slice());
    for (const c of chain.slice(0, step)) table[c.bucket][c.slot] = c.fingerprint;
    return table;
  }

  function drawTable(box, r, table, marks = {}) {
    const bits = r.fingerprint_bits;
    box.innerHTML = table.map((bucket, b) => {
      const cls = ['bucket'];
      if (marks.buckets?.includes(b)) cls.push('candidate');
      const slots = bucket.map((fp, j) => {
        const key = `${b}:${j}`;
        const c = ['slot', fp === null ? 'empty' : 'full'];
        if (marks.now === key) c.push('now');
        if (marks.done?.includes(key)) c.push('done');
        return `<span class="${c.join(' ')}" data-slot="${key}"><span class="sr">slot ${j}: </span>${fp === null ? '<span class="sr">empty</span>' : hex(fp, bits)}</span>`;
      }).join('');
      return `<div class="${cls.join(' ')}" data-bucket="${b}"><span class="bucket-idx">${b}</span>${slots}</div>`;
    }).join('');
  }

  function drawChain() {
    const r = s.report;
    const idx = current();
    const x = r.inserts[idx];
    const chain = x.chain;
    if (s.urlCheck.pending) {
      // The first drawing checks the link's step against this chain.
      s.urlCheck.pending = false;
      if (s.step > chain.length) {
        urlRefused.push(`Step: ${thousands(s.step)} in the link is past this chain's ${count(chain.length, 'step')}; showing step ${thousands(chain.length)}.`);
      }
      state.showRefused($('#cuckoo-step-url'), urlRefused.join(' '), $('#cuckoo-insert'));
    }
    s.step = Math.max(0, Math.min(s.step, chain.length));
    const bits = r.fingerprint_bits;
    const where = x.i1 === x.i2 ? `bucket ${x.i1} (both of its choices land there)` : `buckets ${x.i1} and ${x.i2}`;
    $('#cuckoo-insert-text').innerHTML = `<strong>${escapeHtml(x.text)}</strong> has fingerprint ${hex(x.fingerprint, bits)} ` +
      `and ${where}. ` + (chain.length === 0
      ? (x.ok ? 'One of them had a free slot, so nothing moved.' : 'It did not fit.')
      : chain.length === 1 && x.ok
        ? `Bucket ${chain[0].bucket} had a free slot, so nothing else moved.`
        : `${x.i1 === x.i2 ? 'It was' : 'Both were'} full, so fingerprints had to move${x.ok ? '' : ' until the kicks ran out; then every move was undone'}. ` +
          'Step through the moves: the table shows each one as it happens.');
    const steps = chain.map((c, j) => {
      const next = chain[j + 1];
      const tail = next ? `, pushing out ${hex(next.fingerprint, bits)}, which moves to its other bucket`
        : x.ok ? ', a free slot: done' : ', pushing out another; out of kicks, so all of it is undone';
      return `Fingerprint ${hex(c.fingerprint, bits)} goes into bucket ${c.bucket}, slot ${c.slot}${tail}.`;
    });
    $('#cuckoo-steps').innerHTML = shownSteps(chain.length, s.step).map((j) => (j < 0
      ? `<li class="gap">… ${count(-j, 'more step')} …</li>`
      : `<li value="${j + 1}" class="${j < s.step ? 'shown' : ''}"${j === s.step - 1 ? ' aria-current="step"' : ''}>${steps[j]}</li>`)).join('');
    // aria-disabled rather than disabled, so the focus stays on the button.
    $('#cuckoo-prev').setAttribute('aria-disabled', String(s.step === 0));
    $('#cuckoo-next').setAttribute('aria-disabled', String(s.step >= chain.length));
    $('#cuckoo-step-text').textContent = chain.length
      ? (s.step === 0 ? `Step 0 of ${chain.length}: ${x.i1 === x.i2 ? `bucket ${x.i1} is` : `buckets ${x.i1} and ${x.i2} are`} outlined.` : `Step ${s.step} of ${chain.length}: ${steps[s.step - 1]}`)
      : '';
    const key = (c) => `${c.bucket}:${c.slot}`;
    drawTable($('#cuckoo-table'), r, tableAt(r, chain, s.step), {
      buckets: [x.i1, x.i2],
      now: s.step > 0 ? key(chain[s.step - 1]) : null,
      done: chain.slice(0, Math.max(0, s.step - 1)).map(key),
    });
    $('#cuckoo-table').dataset.step = String(s.step);
    save();
  }

  function drawDeletes(r, chosen, stranger) {
    const ul = $('#cuckoo-deleted');
    ul.innerHTML = r.deletes.map((d) => {
      const w = `<span class="q">${escapeHtml(d.text)}</span>`;
      if (d.status === 'not_found') return `<li class="absent">${w}: no matching fingerprint in its buckets, so <strong>nothing was deleted</strong>.</li>`;
      if (d.member) return `<li class="member">${w} was inserted: one copy of its fingerprint is <strong>deleted</strong>.</li>`;
      return `<li class="false-positive">${w} was never inserted, but its fingerprint matched one in its buckets, so that one was <strong>deleted</strong> instead.</li>`;
    }).join('');
    if (!chosen && !stranger) ul.insertAdjacentHTML('beforeend', `<li>None of probe-1 to probe-${thousands(probes)} matches here, so there is no stranger to delete.</li>`);
    const lost = r.lost;
    const box = $('#cuckoo-lost');
    box.dataset.lost = lost.join('\n');
    box.innerHTML = lost.length
      ? `Now <strong>${list(lost.map(escapeHtml))}</strong>, inserted and never deleted, ${plural(lost.length, 'answers', 'answer')} no: ` +
        'deleting a word that was never inserted took away someone else\'s fingerprint.'
      : 'Every word still inserted answers maybe.';
    box.classList.toggle('bad', lost.length > 0);
  }

  $('#cuckoo-insert').addEventListener('change', () => {
    const i = +$('#cuckoo-insert').value;
    s.follow = s.report.inserts[i].text;
    s.step = 0;
    render();
  });
  $('#cuckoo-next').addEventListener('click', () => { s.step++; drawChain(); });
  $('#cuckoo-prev').addEventListener('click', () => { if (s.step > 0) s.step--; drawChain(); });
  form.addEventListener('input', debounce(() => { s.step = 0; render(); }, 150));
  form.addEventListener('submit', (e) => e.preventDefault());
  render();
}
