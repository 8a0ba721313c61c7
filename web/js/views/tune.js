// Section 3: the calculator and its three curves. Say which of n, p, m, k
// you know; the engine's tune operation solves the rest (the least m, the
// most n or the best k for a target p), and curves gives the rate as n, k or
// m moves with the others held.
//
// Fast as felt: the figures are solved and shown on each keystroke (one
// small engine call); the curves, the slow part, are computed in the worker
// for the last input only, and the charts are updated in place rather than
// built again.
import { run, runLater } from '../engine.js';
import * as state from '../state.js';
import { lineChart } from '../charts.js';
import { clearErrors, showError } from '../form.js';
import { bytes, count, oneIn, percentSig, thousands } from '../format.js';

const defaults = { mode: 'n_p', n: '1,000,000', p: '1%', m: '9,585,059', k: '7', prime: false };

// Each mode is named by what it is given; the rest is solved.
const modes = {
  n_p: { gives: 'npP', solves: 'm and k: the fewest bits that reach p, and the best k for them' },
  n_p_k: { gives: 'npkP', solves: 'm: the fewest bits that reach p with these k hashes' },
  n_m: { gives: 'nm', solves: 'k, the best for these n and m, and the rate p' },
  n_m_k: { gives: 'nmk', solves: 'the rate p' },
  m_p: { gives: 'mp', solves: 'n and k: the most items m bits hold under p, and the k that holds the most' },
  m_p_k: { gives: 'mpk', solves: 'n: the most items m bits hold under p with these k hashes' },
};
const gives = (mode, f) => modes[mode].gives.includes(f);

const presets = {
  'one-percent': { mode: 'n_p', n: '1,000,000', p: '1%', prime: false },
  rocksdb: { mode: 'n_m', n: '1,000,000', m: '10,000,000' },
  cassandra: { mode: 'n_p', n: '1,000,000', p: '0.01', prime: false },
  'cassandra-lcs': { mode: 'n_p', n: '1,000,000', p: '0.1', prime: false },
  // BIP 37's own example, as section 9 (and `bloomlab bip37 --n 20000 --p 0.001`)
  // sizes it: 35,943 whole bytes and 9 hashes, under the 36,000-byte cap.
  bip37: { mode: 'n_m_k', n: '20,000', m: '287,544', k: '9' },
};

export function mount(root) {
  const form = root.querySelector('#tune-form');
  const $ = (sel) => root.querySelector(sel);
  const mode = () => form.querySelector('input[name="mode"]:checked').value;
  const out = $('#tune-out');

  function setInputs(v) {
    form.querySelector(`input[name="mode"][value="${v.mode}"]`).checked = true;
    for (const f of ['n', 'p', 'm', 'k']) if (v[f] !== undefined) $(`#tune-${f}`).value = v[f];
    if (v.prime !== undefined) $('#tune-prime').checked = v.prime;
  }

  const urlMode = state.choice('tu_mode', Object.keys(modes), defaults.mode, 'I know');
  const urlPrime = state.choice('tu_prime', ['0', '1'], '0', 'Round m up to a prime (1 for yes)');
  setInputs({
    mode: urlMode.value,
    n: state.get('tu_n', defaults.n),
    p: state.get('tu_p', defaults.p),
    m: state.get('tu_m', defaults.m),
    k: state.get('tu_k', defaults.k),
    prime: urlPrime.value === '1',
  });

  state.showRefused($('#tune-mode-url'), [urlMode.refused, urlPrime.refused].filter(Boolean).join(' '), form);

  function showFields() {
    for (const el of form.querySelectorAll('[data-mode]')) el.hidden = !el.dataset.mode.split(' ').includes(mode());
    $('#tune-solves').textContent = `The lab solves ${modes[mode()].solves}.`;
  }

  function solve() {
    clearErrors(form);
    showFields();
    const md = mode();
    const req = { mode: md, n: $('#tune-n').value, p: $('#tune-p').value, m: $('#tune-m').value, k: $('#tune-k').value, prime: $('#tune-prime').checked };
    const keep = (f, v, d) => (gives(md, f) && v !== d ? v : null);
    state.set({
      tu_mode: md === defaults.mode ? null : md,
      tu_n: keep('n', req.n, defaults.n),
      tu_p: keep('p', req.p, defaults.p),
      tu_m: keep('m', req.m, defaults.m),
      tu_k: keep('k', req.k, defaults.k),
      tu_prime: gives(md, 'P') && req.prime ? '1' : null,
    });
    const r = run('tune', req);
    if (showError(form, 'tune', r, gives(md, 'n') ? 'n' : 'm')) {
      out.classList.add('stale');
      return;
    }
    out.classList.remove('stale');
    // What was solved is marked: it is the answer to the question asked.
    const solved = (f) => (gives(md, f) ? '' : ' <span class="solved">solved</span>');
    const rows = [
      ['Items, n', `${thousands(r.n)}${solved('n')}`],
      ['Bits, m', `${thousands(r.m)} (${bytes(r.bytes)})${solved('m')}`],
      ['Hashes, k', `${r.k}${solved('k')} <span class="muted">(best real k: ${r.k_optimal.toFixed(2)})</span>`],
      ['Bits per item', r.bits_per_item.toFixed(2)],
      ['False positives, formula', `${percentSig(r.fpr_approx, 4)} <span class="muted">(${oneIn(r.one_in_approx)})</span>` +
        (r.p_target === null ? solved('p') : ` <span class="muted">(target ${percentSig(r.p_target, 4)})</span>`)],
      ['False positives, exact', `${percentSig(r.fpr_exact, 4)} <span class="muted">(${oneIn(r.one_in_exact)})</span>`],
      ['Expected fill', percentSig(r.fill_expected, 3)],
    ];
    // The blocked layout: 512-bit blocks, one cache line a lookup.
    if (r.fpr_blocked !== undefined) {
      rows.push(['Blocked filter (512-bit blocks), same m', percentSig(r.fpr_blocked, 4)]);
      rows.push(['Blocked filter, m for the same rate', r.blocked_m === null ? '<span class="muted">none in range</span>' : count(r.blocked_m, 'bit')]);
    }
    out.innerHTML = rows.map(([k, v]) => `<div><dt>${k}</dt><dd data-field="${k}">${v}</dd></div>`).join('');
    $('#tune-status').textContent = `n = ${thousands(r.n)}, m = ${thousands(r.m)} bits, k = ${r.k}: false positives ${percentSig(r.fpr_exact, 4)} (exact).`;
    out.dataset.n = String(r.n);
    out.dataset.m = String(r.m);
    out.dataset.k = String(r.k);
    curvesFor(r);
  }

  // The curves are computed in the worker, so typing never waits for them:
  // one request at a time, and when it comes back for a filter that is no
  // longer the one shown, the latest is asked for instead.
  const keyOf = (t) => `${t.m} ${t.n} ${t.k}`;
  let wanted = null;
  let inFlight = false;
  let drawn = '';
  function curvesFor(t) {
    wanted = t;
    if (!inFlight) ask();
  }

  async function ask() {
    const t = wanted;
    const key = keyOf(t);
    if (key === drawn) return;
    inFlight = true;
    const started = performance.now();
    const c = await runLater('curves', { m: t.m, n: t.n, k: t.k });
    inFlight = false;
    if (keyOf(wanted) !== key) {
      ask();
      return;
    }
    if (c.error) return;
    drawn = key;
    drawCurves(c, key, started, performance.now());
  }

  function drawCurves(c, key, started, computed) {
    const series = (curve, blocked) => [
      { label: 'formula', kind: 'approx', values: curve.fpr_approx },
      { label: 'exact', kind: 'exact', dash: [6, 4], values: curve.fpr_exact },
      ...(blocked && curve.fpr_blocked ? [{ label: 'blocked, 512-bit', kind: 'blocked', values: curve.fpr_blocked }] : []),
    ];
    lineChart($('#tune-chart-n'), { x: c.vs_n.x, series: series(c.vs_n, true), xLabel: 'items, n', yLabel: 'rate' });
    lineChart($('#tune-chart-k'), { x: c.vs_k.x, series: series(c.vs_k, false), xLabel: 'hashes, k', yLabel: 'rate', logY: true, marker: c.k_best });
    const total = c.vs_n.x.length + c.vs_k.x.length + c.vs_m.x.length;
    $('#tune-exact-note').textContent = c.exact_left_out === 0 ? '' :
      `The exact line is drawn through ${thousands(total - c.exact_left_out)} of the ${thousands(total)} points. ` +
      'At this size each exact value takes a while, so the rest are left out and the page answers at once.';
    lineChart($('#tune-chart-m'), { x: c.vs_m.x, series: series(c.vs_m, true), xLabel: 'bits, m', yLabel: 'rate', logX: true, logY: true });
    // For the browser tests' timings: asked to drawn, the worker's part, and
    // the page's own (the charts); and that they match the figures.
    $('#tune-charts').dataset.drawn = key;
    $('#tune-charts').dataset.ms = (performance.now() - started).toFixed(1);
    $('#tune-charts').dataset.msEngine = (computed - started).toFixed(1);
    $('#tune-charts').dataset.msCharts = (performance.now() - computed).toFixed(1);
  }

  for (const b of root.querySelectorAll('[data-preset]')) {
    b.addEventListener('click', () => {
      setInputs(presets[b.dataset.preset]);
      solve();
    });
  }
  // Typing answers as it goes; a change without an input event (a value
  // filled in by the browser, say) is answered too.
  form.addEventListener('input', solve);
  form.addEventListener('change', solve);
  form.addEventListener('submit', (e) => e.preventDefault());
  solve();
}
