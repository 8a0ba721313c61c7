// Section 12's drill: the engine's drill operation runs Contains Duplicate,
// Two Sum and Longest Consecutive Sequence on the user's numbers with an
// exact set and with a Bloom filter in its place, over seeded trials, in
// the worker. The page writes out what it returns.
import { runLater } from '../engine.js';
import * as state from '../state.js';
import { clearErrors, debounce, showError } from '../form.js';
import { escapeHtml, percentSig, thousands } from '../format.js';

const fields = ['numbers', 'target', 'm', 'k', 'trials', 'seed'];
const key = (f) => `dr_${f}`;
const names = { contains_duplicate: 'Contains Duplicate', two_sum: 'Two Sum', longest_consecutive: 'Longest Consecutive Sequence' };

export function mount(root) {
  const form = root.querySelector('#drill-form');
  const $ = (sel) => root.querySelector(sel);
  const defaults = Object.fromEntries(fields.map((f) => [f, $(`#drill-${f}`).value]));
  for (const f of fields) $(`#drill-${f}`).value = state.get(key(f), defaults[f]);
  let generation = 0;

  async function drill() {
    clearErrors(form);
    const gen = ++generation;
    const req = Object.fromEntries(fields.map((f) => [f, $(`#drill-${f}`).value]));
    state.set(Object.fromEntries(fields.map((f) => [key(f), req[f] === defaults[f] ? null : req[f]])));
    $('#drill-table').setAttribute('aria-busy', 'true');
    $('#drill-progress').textContent = `Running ${req.trials.trim()} trials of each problem…`;
    const r = await runLater('drill', req);
    if (gen !== generation) return;
    $('#drill-table').removeAttribute('aria-busy');
    $('#drill-progress').textContent = '';
    if (r.error) {
      $('#drill-out').classList.add('stale');
      if (r.error.field) showError(form, 'drill', r, 'numbers');
      else $('#drill-progress').textContent = r.error.message;
      return;
    }
    $('#drill-out').classList.remove('stale');
    $('#drill-summary').textContent = `${thousands(r.numbers.length)} numbers, ${thousands(r.distinct)} distinct, in a filter of ` +
      `${thousands(r.m)} bits with ${r.k} hash${r.k === 1 ? '' : 'es'}. Once all are in, a number never added reads maybe about ` +
      `${percentSig(r.fpr_expected)} of the time (less while it fills). ${thousands(r.trials)} trials, seed ${r.seed}.`;
    $('#drill-table tbody').innerHTML = r.problems.map((d) =>
      `<tr data-problem="${d.name}"><td class="text">${names[d.name]}</td><td class="text">${escapeHtml(d.exact.words)}</td>` +
      `<td class="text${d.filter_wrong ? ' wrong' : ''}">${escapeHtml(d.filter.words)}${d.filter_wrong ? ' (wrong)' : ''}</td>` +
      `<td><span>${thousands(d.wrong)} of ${thousands(r.trials)}<br><span class="muted">${percentSig(d.wrong_rate)}: ` +
      `${percentSig(d.wrong_low)} to ${percentSig(d.wrong_high)}</span></span></td>` +
      `<td class="text">${d.why ? `trial ${d.first_wrong_trial + 1}: ${escapeHtml(d.why)}` : 'never wrong in these trials'}</td></tr>`).join('');
  }

  form.addEventListener('input', debounce(drill, 400));
  form.addEventListener('submit', (e) => e.preventDefault());
  return { run: drill };
}
