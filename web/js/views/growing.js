// Section 8: a scalable filter beside a fixed one as a list outgrows its
// plan. The engine's growing operation adds item-1..item-n to both, and
// every few items measures each against the same probes.
import { runLater, runUnlessGiven } from '../engine.js';
import { setUpLater } from '../sections.js';
import * as state from '../state.js';
import { lineChart } from '../charts.js';
import { clearErrors, debounce, engineDefault, showError } from '../form.js';
import { count, escapeHtml, percentSig, plural, thousands } from '../format.js';

// The drawing's own defaults; growth and tightening are the engine's.
const ownDefaults = { n: '3,000', n0: '200', p0: '1%' };
let defaults = null;
const keys = { n: 'gr_n', n0: 'gr_n0', p0: 'gr_p', s: 'gr_s', r: 'gr_r' };

// What the stages' bits predict, beside the measured share, in words that
// match the numbers: "agrees" only when the prediction lies in the measured
// share's 95% interval.
function currentWords(row) {
  const agree = row.scalable_low <= row.scalable_current && row.scalable_current <= row.scalable_high;
  return `Its bits predict ${percentSig(row.scalable_current)}. In each stage, the share of bits that are 1, to the power k, is the ` +
    'chance that an item never added reads all 1s there. The stages combine as above. ' +
    (agree ? 'The measured share agrees: the prediction lies in its 95% interval.'
      : 'The prediction lies outside the measured share\'s 95% interval.');
}

// The plan's targets compounded, and which side of it the measured rate is.
function planWords(row, first) {
  const plan = `The plan aimed at ${percentSig(row.scalable_planned)}, its target rates compounded`;
  if (row.scalable_fpr_measured <= row.scalable_planned) return `${plan}; the measured rate is under it.`;
  return `${plan}; the measured rate is above it. A target holds only for a k of (m/n)·ln 2 and random items, and a stage ` +
    `takes only items that read absent, which set more new bits than random ones: stage 1 is ${percentSig(first.fill)} 1s ` +
    'where its size assumed about half.';
}

export function mount(root) {
  const form = root.querySelector('#growing-form');
  const $ = (sel) => root.querySelector(sel);
  defaults = { ...ownDefaults, s: engineDefault('growing', 's'), r: engineDefault('growing', 'r') };
  for (const f of Object.keys(defaults)) $(`#growing-${f}`).value = state.get(keys[f], defaults[f]);

  const request = () => Object.fromEntries(Object.keys(defaults).map((f) => [f, $(`#growing-${f}`).value]));
  let rendered = 0;
  // given: the first figures, computed in the worker (below), with the
  // request they answer; drawn if the inputs are still those.
  function render(given) {
    rendered++;
    clearErrors(form);
    const req = request();
    state.set(Object.fromEntries(Object.keys(defaults).map((f) => [keys[f], req[f] === defaults[f] ? null : req[f]])));
    const r = runUnlessGiven(given, 'growing', req);
    if (showError(form, 'growing', r, 'n')) {
      $('#growing-out').classList.add('stale');
      return;
    }
    $('#growing-out').classList.remove('stale');
    const last = r.rows[r.rows.length - 1];
    const first = r.stages[0];
    const held = r.stages.reduce((sum, st) => sum + st.n, 0);
    $('#growing-summary').innerHTML = escapeHtml(
      `Both filters were planned for ${count(r.n0, 'item')} at ${percentSig(r.p0)}, sized as section 3 sizes a filter: ` +
      `${thousands(r.fixed.m)} bits and ${count(r.fixed.k, 'hash', 'hashes')}. The fixed one keeps them; after ${count(last.n, 'item')} it said maybe to ` +
      `${percentSig(last.fixed_fpr_measured)} of ${thousands(r.probes)} probes. The scalable one has grown to ${count(last.stages, 'stage')} ` +
      `and measured ${percentSig(last.scalable_fpr_measured)} (95% interval ${percentSig(last.scalable_low)} to ${percentSig(last.scalable_high)}).`);
    $('#growing-bound').textContent = `${currentWords(last)} ${planWords(last, first)}`;
    $('#growing-held').textContent = r.skipped === 0
      ? `Every item read absent when it was added, so Held adds up to all ${count(last.n, 'item')}.`
      : `${count(r.skipped, 'item')} of ${thousands(last.n)} already read present when ${plural(r.skipped, 'it was', 'they were')} added ` +
        `(a false positive of the stages so far). A scalable filter does not add such an item again: it would fill a stage ` +
        `for nothing. So Held adds up to ${thousands(held)}.`;
    $('#growing-held').dataset.held = String(held);
    $('#growing-held').dataset.skipped = String(r.skipped);
    $('#growing-summary').dataset.firstM = String(first.m);
    $('#growing-summary').dataset.stages = String(last.stages);
    const x = r.rows.map((row) => row.n);
    lineChart($('#growing-chart'), {
      x,
      series: [
        { label: 'fixed, measured', kind: 'fixed', values: r.rows.map((row) => row.fixed_fpr_measured) },
        { label: 'fixed, formula', kind: 'fixed', dash: [6, 4], values: r.rows.map((row) => row.fixed_fpr_approx) },
        { label: 'scalable, measured', kind: 'measured', values: r.rows.map((row) => row.scalable_fpr_measured) },
        { label: 'scalable, from its bits', kind: 'approx', dash: [6, 4], values: r.rows.map((row) => row.scalable_current) },
        { label: 'scalable, plan', kind: 'marker', dash: [2, 3], values: r.rows.map((row) => row.scalable_planned) },
      ],
      xLabel: 'items added', yLabel: 'false positives', logY: true,
    });
    $('#growing-table tbody').innerHTML = r.stages.map((st, i) =>
      `<tr><td>${i + 1}</td><td>${thousands(st.capacity)}</td><td>${percentSig(st.p)}</td><td>${thousands(st.m)}</td>` +
      `<td>${st.k}</td><td>${thousands(st.n)}</td><td>${percentSig(st.fill)}</td></tr>`).join('');
  }

  form.addEventListener('input', debounce(() => render(), 200));
  form.addEventListener('submit', (e) => e.preventDefault());
  // The first figures are computed in the worker (thousands of lookups), so
  // that setting up the page does not wait here for them; unless a change
  // was drawn meanwhile, they are drawn when they come.
  setUpLater(() => {
    const req = request();
    return runLater('growing', req).then((report) => {
      if (rendered === 0) render({ request: req, report });
    });
  });
}
