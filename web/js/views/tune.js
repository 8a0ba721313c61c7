// Section 3: the calculator and its three curves. The engine's tune
// operation solves the missing parameters; curves gives the rate as n, k or
// m moves with the others held.
import { run } from '../engine.js';
import * as state from '../state.js';
import { lineChart } from '../charts.js';
import { clearErrors, debounce, showError } from '../form.js';
import { bytes, count, oneIn, percentSig, thousands } from '../format.js';

const defaults = { mode: 'n_p', n: '1,000,000', p: '1%', m: '9,585,059', k: '7', prime: false };

const modes = ['n_p', 'n_m', 'n_m_k'];

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

  function setInputs(v) {
    form.querySelector(`input[name="mode"][value="${v.mode}"]`).checked = true;
    for (const f of ['n', 'p', 'm', 'k']) if (v[f] !== undefined) $(`#tune-${f}`).value = v[f];
    if (v.prime !== undefined) $('#tune-prime').checked = v.prime;
  }

  const urlMode = state.choice('tu_mode', modes, defaults.mode, 'I know');
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
  }

  function solve() {
    clearErrors(form);
    showFields();
    const req = { mode: mode(), n: $('#tune-n').value, p: $('#tune-p').value, m: $('#tune-m').value, k: $('#tune-k').value, prime: $('#tune-prime').checked };
    state.set({
      tu_mode: req.mode === defaults.mode ? null : req.mode,
      tu_n: req.n === defaults.n ? null : req.n,
      tu_p: req.mode === 'n_p' && req.p !== defaults.p ? req.p : null,
      tu_m: req.mode !== 'n_p' && req.m !== defaults.m ? req.m : null,
      tu_k: req.mode === 'n_m_k' && req.k !== defaults.k ? req.k : null,
      tu_prime: req.mode === 'n_p' && req.prime ? '1' : null,
    });
    const r = run('tune', req);
    if (showError(form, 'tune', r, 'n')) {
      root.querySelector('#tune-out').classList.add('stale');
      return;
    }
    root.querySelector('#tune-out').classList.remove('stale');
    const rows = [
      ['Bits, m', `${thousands(r.m)} (${bytes(r.bytes)})`],
      ['Hashes, k', `${r.k} <span class="muted">(best real k: ${r.k_optimal.toFixed(2)})</span>`],
      ['Bits per item', r.bits_per_item.toFixed(2)],
      ['False positives, formula', `${percentSig(r.fpr_approx, 4)} <span class="muted">(${oneIn(r.one_in_approx)})</span>`],
      ['False positives, exact', `${percentSig(r.fpr_exact, 4)} <span class="muted">(${oneIn(r.one_in_exact)})</span>`],
      ['Expected fill', percentSig(r.fill_expected, 3)],
    ];
    // The blocked layout: 512-bit blocks, one cache line a lookup.
    if (r.fpr_blocked !== undefined) {
      rows.push(['Blocked filter (512-bit blocks), same m', percentSig(r.fpr_blocked, 4)]);
      rows.push(['Blocked filter, m for the same rate', r.blocked_m === null ? '<span class="muted">none in range</span>' : count(r.blocked_m, 'bit')]);
    }
    $('#tune-out').innerHTML = rows.map(([k, v]) => `<div><dt>${k}</dt><dd data-field="${k}">${v}</dd></div>`).join('');
    $('#tune-status').textContent = `m = ${thousands(r.m)} bits, k = ${r.k}: false positives ${percentSig(r.fpr_exact, 4)} (exact).`;
    $('#tune-out').dataset.m = String(r.m);
    $('#tune-out').dataset.k = String(r.k);
    drawCurves(r);
  }

  function drawCurves(t) {
    const c = run('curves', { m: t.m, n: t.n, k: t.k });
    if (c.error) return;
    const series = (curve, blocked) => [
      { label: 'formula', kind: 'approx', values: curve.fpr_approx },
      { label: 'exact', kind: 'exact', dash: [6, 4], values: curve.fpr_exact },
      ...(blocked && curve.fpr_blocked ? [{ label: 'blocked, 512-bit', kind: 'blocked', values: curve.fpr_blocked }] : []),
    ];
    lineChart($('#tune-chart-n'), { x: c.vs_n.x, series: series(c.vs_n, true), xLabel: 'items, n', yLabel: 'rate' });
    lineChart($('#tune-chart-k'), { x: c.vs_k.x, series: series(c.vs_k, false), xLabel: 'hashes, k', yLabel: 'rate', logY: true, marker: c.k_best });
    const total = c.vs_n.x.length + c.vs_k.x.length + c.vs_m.x.length;
    $('#tune-exact-note').textContent = c.exact_left_out === 0 ? '' :
      `The exact line is drawn through ${thousands(total - c.exact_left_out)} of the ${thousands(total)} points: ` +
      'at this size each exact value takes long enough that the rest are left out so the page answers at once.';
    lineChart($('#tune-chart-m'), { x: c.vs_m.x, series: series(c.vs_m, true), xLabel: 'bits, m', yLabel: 'rate', logX: true, logY: true });
  }

  for (const b of root.querySelectorAll('[data-preset]')) {
    b.addEventListener('click', () => {
      setInputs(presets[b.dataset.preset]);
      solve();
    });
  }
  const later = debounce(solve, 120);
  form.addEventListener('input', later);
  form.addEventListener('change', solve);
  form.addEventListener('submit', (e) => e.preventDefault());
  solve();
}
