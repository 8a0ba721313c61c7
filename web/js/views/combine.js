// Section 7: two lists, their filters, the OR and the AND. The engine's
// combine operation builds both filters, combines them, builds filters
// directly from the union and the intersection, measures each against the
// same probes and estimates every set's size from the bits.
import { limits, run } from '../engine.js';
import * as state from '../state.js';
import { capped, checkRange, clearErrors, debounce, lines, showError } from '../form.js';
import { count, percent, thousands } from '../format.js';

export const defaultA = ['apple', 'banana', 'cherry', 'grape', 'lemon', 'mango', 'melon', 'olive', 'peach', 'pear', 'plum', 'quince'];
export const defaultB = ['cherry', 'date', 'fig', 'guava', 'kiwi', 'lemon', 'lime', 'mango', 'papaya', 'pear', 'sloe', 'yuzu'];
const defaults = { m: '128', k: '3' };

export function mount(root) {
  const form = root.querySelector('#combine-form');
  const $ = (sel) => root.querySelector(sel);
  const fromUrl = (key, fallback) => { const v = state.get(key, null); return v === null ? fallback.join('\n') : v; };
  $('#combine-a').value = fromUrl('cb_a', defaultA);
  $('#combine-b').value = fromUrl('cb_b', defaultB);
  $('#combine-m').value = state.get('cb_m', defaults.m);
  $('#combine-k').value = state.get('cb_k', defaults.k);

  function save() {
    const a = $('#combine-a').value, b = $('#combine-b').value;
    const m = $('#combine-m').value, k = $('#combine-k').value;
    state.set({
      cb_a: a === defaultA.join('\n') ? null : a,
      cb_b: b === defaultB.join('\n') ? null : b,
      cb_m: m === defaults.m ? null : m,
      cb_k: k === defaults.k ? null : k,
    });
  }

  function render() {
    clearErrors(form);
    save();
    const a = capped(form, 'combine', 'a', lines($('#combine-a').value), limits().items);
    const b = capped(form, 'combine', 'b', lines($('#combine-b').value), limits().items);
    const ok = checkRange(form, 'combine', 'm');
    if (!ok) return stale(true);
    const r = run('combine', { a, b, m: $('#combine-m').value, k: $('#combine-k').value, hash: 'murmur3', scheme: 'enhanced' });
    if (showError(form, 'combine', r, 'a')) return stale(true);
    stale(false);
    drawRows(r);
    drawRates(r);
    drawEstimates(r);
    $('#combine-status').textContent = `A OR B has ${r.union.same_as_direct ? 'the same bits as' : 'other bits than'} the filter of all ` +
      `${count(r.n_union, 'word')}; A AND B said maybe to ${percent(r.intersection.fpr_measured)}, the filter of the shared words to ` +
      `${percent(r.intersection.direct_fpr_measured)}.`;
  }

  function stale(on) {
    $('#combine-out').classList.toggle('stale', on);
    return null;
  }

  function row(label, bits, note, extra = null) {
    const cells = bits.map((v, i) => {
      const cls = ['cell', v ? 'on' : ''];
      if (extra && v && !extra[i]) cls.push('extra');
      return `<span class="${cls.join(' ')}" data-bit="${i}"></span>`;
    }).join('');
    return `<div class="row"><p class="row-label">${label} <span class="muted">${note}</span></p>` +
      `<div class="strip" role="img" aria-label="${label}: its ${bits.length} bits, set ones shaded">${cells}</div></div>`;
  }

  function drawRows(r) {
    const box = $('#combine-rows');
    if (!r.bits) { box.textContent = ''; return; }
    box.innerHTML = [
      row('A', r.bits.a, count(r.n_a, 'word')),
      row('B', r.bits.b, count(r.n_b, 'word')),
      row('A OR B', r.bits.or, r.union.same_as_direct ? `the same bits as a filter of all ${count(r.n_union, 'word')}` : 'differs from the filter of all the words'),
      row('A AND B', r.bits.and, 'dark red and striped: set in both, but by no shared word', r.bits.direct_and),
      row('Built from the shared words', r.bits.direct_and, count(r.n_intersection, 'word')),
    ].join('');
  }

  function drawRates(r) {
    const rate = (fpr) => percent(fpr);
    $('#combine-table tbody').innerHTML =
      `<tr data-row="union"><th scope="row">A OR B</th><td>${thousands(r.union.bits_set)}</td><td>${rate(r.union.fpr_measured)}</td>` +
      `<td>${r.union.same_as_direct ? 'identical, bit for bit' : 'different bits'}</td></tr>` +
      `<tr data-row="intersection"><th scope="row">A AND B</th><td>${thousands(r.intersection.bits_set)}</td><td>${rate(r.intersection.fpr_measured)}</td>` +
      `<td>${count(r.intersection.direct_bits_set, 'bit')}, ${rate(r.intersection.direct_fpr_measured)}</td></tr>`;
  }

  function drawEstimates(r) {
    const e = r.estimates;
    const line = (name, truth, est, se) => `<tr><th scope="row">${name}</th><td>${thousands(truth)}</td>` +
      `<td>${est === null ? '<span class="muted">every bit set: no estimate</span>' : `${est.toFixed(1)}${se === null ? '' : ` ± ${se.toFixed(1)}`}`}</td></tr>`;
    $('#combine-estimates tbody').innerHTML =
      line('A', r.n_a, e.a, e.a_se) + line('B', r.n_b, e.b, e.b_se) +
      line('A OR B', r.n_union, e.union, e.union_se) + line('A AND B', r.n_intersection, e.intersection, e.intersection_se);
  }

  form.addEventListener('input', debounce(render, 150));
  form.addEventListener('submit', (e) => e.preventDefault());
  render();
}
