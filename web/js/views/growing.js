// Section 8: a scalable filter beside a fixed one as a list outgrows its
// plan. The engine's growing operation adds item-1..item-n to both, and
// every few items measures each against the same probes.
import { run } from '../engine.js';
import * as state from '../state.js';
import { lineChart } from '../charts.js';
import { clearErrors, debounce, showError } from '../form.js';
import { count, escapeHtml, percentSig, thousands } from '../format.js';

const defaults = { n: '3,000', n0: '200', p0: '1%', s: '2', r: '0.85' };
const keys = { n: 'gr_n', n0: 'gr_n0', p0: 'gr_p', s: 'gr_s', r: 'gr_r' };

export function mount(root) {
  const form = root.querySelector('#growing-form');
  const $ = (sel) => root.querySelector(sel);
  for (const f of Object.keys(defaults)) $(`#growing-${f}`).value = state.get(keys[f], defaults[f]);

  function render() {
    clearErrors(form);
    const req = Object.fromEntries(Object.keys(defaults).map((f) => [f, $(`#growing-${f}`).value]));
    state.set(Object.fromEntries(Object.keys(defaults).map((f) => [keys[f], req[f] === defaults[f] ? null : req[f]])));
    const r = run('growing', req);
    if (showError(form, 'growing', r, 'n')) {
      $('#growing-out').classList.add('stale');
      return;
    }
    $('#growing-out').classList.remove('stale');
    const last = r.rows[r.rows.length - 1];
    $('#growing-summary').innerHTML = escapeHtml(
      `Both filters were planned for ${count(r.n0, 'item')} at ${percentSig(r.p0)}. ` +
      `The fixed one keeps its ${thousands(r.fixed.m)} bits and ${count(r.fixed.k, 'hash', 'hashes')}; after ${count(last.n, 'item')} it said maybe to ` +
      `${percentSig(last.fixed_fpr_measured)} of the probes. The scalable one has grown to ${count(last.stages, 'stage')} ` +
      `and measured ${percentSig(last.scalable_fpr_measured)}, under its bound of ${percentSig(last.scalable_bound)}.`);
    $('#growing-summary').dataset.stages = String(last.stages);
    const x = r.rows.map((row) => row.n);
    lineChart($('#growing-chart'), {
      x,
      series: [
        { label: 'fixed, measured', kind: 'fixed', values: r.rows.map((row) => row.fixed_fpr_measured) },
        { label: 'fixed, formula', kind: 'fixed', dash: [6, 4], values: r.rows.map((row) => row.fixed_fpr_approx) },
        { label: 'scalable, measured', kind: 'measured', values: r.rows.map((row) => row.scalable_fpr_measured) },
        { label: 'scalable, bound', kind: 'approx', dash: [6, 4], values: r.rows.map((row) => row.scalable_bound) },
      ],
      xLabel: 'items added', yLabel: 'false positives', logY: true,
    });
    $('#growing-table tbody').innerHTML = r.stages.map((st, i) =>
      `<tr><td>${i + 1}</td><td>${thousands(st.capacity)}</td><td>${percentSig(st.p)}</td><td>${thousands(st.m)}</td>` +
      `<td>${st.k}</td><td>${thousands(st.n)}</td></tr>`).join('');
  }

  form.addEventListener('input', debounce(render, 200));
  form.addEventListener('submit', (e) => e.preventDefault());
  render();
}
