// Section 9: sizes real systems choose. The engine's bip37 operation sizes a
// filter as BIP 37 does and rates it with its truncated hash count beside a
// classic filter of the same size; its tune operation gives the rate of
// RocksDB's and Cassandra's settings, classic and blocked.
import { run } from '../engine.js';
import * as state from '../state.js';
import { clearErrors, debounce, showError } from '../form.js';
import { bytes, escapeHtml, percentSig, thousands } from '../format.js';

const defaults = { n: '20,000', p: '0.001', keys: '1,000,000' };

export function mount(root) {
  const bform = root.querySelector('#bip-form');
  const sform = root.querySelector('#systems-form');
  const $ = (sel) => root.querySelector(sel);
  $('#bip-n').value = state.get('bp_n', defaults.n);
  $('#bip-p').value = state.get('bp_p', defaults.p);
  $('#systems-n').value = state.get('sy_n', defaults.keys);

  function bip() {
    clearErrors(bform);
    const n = $('#bip-n').value, p = $('#bip-p').value;
    state.set({ bp_n: n === defaults.n ? null : n, bp_p: p === defaults.p ? null : p });
    const r = run('bip37', { n, p });
    if (showError(bform, 'bip', r, 'n')) {
      $('#bip-out').classList.add('stale');
      $('#bip-answer').classList.add('stale');
      return;
    }
    $('#bip-out').classList.remove('stale');
    $('#bip-answer').classList.remove('stale');
    const capped = (yes, what) => (yes ? ` <span class="flag">capped at ${what}</span>` : '');
    const rows = [
      ['Size', `${thousands(r.size_bytes)} bytes${capped(r.capped_size, '36,000 bytes')}`, 'size'],
      ['Hash functions', `${r.n_hash_funcs}${capped(r.capped_hashes, '50')}`, 'hashes'],
      ['Expected rate, with that many hashes', percentSig(r.fpr_expected, 5), 'rate'],
      [`Same size, best whole k (${r.k_best_same_size})`, percentSig(r.fpr_best_k_same_size, 5), 'best'],
    ];
    $('#bip-out').innerHTML = rows.map(([k, v, f]) => `<div><dt>${k}</dt><dd data-field="${f}">${v}</dd></div>`).join('');
    $('#bip-out').dataset.size = String(r.size_bytes);
    $('#bip-out').dataset.hashes = String(r.n_hash_funcs);
    const target = +(r.p * 100).toPrecision(6) + '%';
    let text = `Does ${thousands(r.size_bytes)} bytes hold ${thousands(r.n)} items under ${target}? ` +
      (r.fpr_expected <= r.p ? `<strong>Yes</strong>: ${percentSig(r.fpr_expected, 5)}.`
        : `<strong>Not quite</strong>: with ${r.n_hash_funcs} hashes it gives ${percentSig(r.fpr_expected, 5)}.`);
    if (r.k_best_same_size !== r.n_hash_funcs) {
      text += ` The same bytes with ${r.k_best_same_size} hashes would give ${percentSig(r.fpr_best_k_same_size, 5)}` +
        (r.fpr_best_k_same_size > r.p ? ', still a hair over.' : '.');
    }
    $('#bip-answer').innerHTML = text;
  }

  // Each setting as a request to the tune operation: RocksDB fixes the bits
  // a key, Cassandra the target rate.
  function systems() {
    clearErrors(sform);
    const n = $('#systems-n').value;
    state.set({ sy_n: n === defaults.keys ? null : n });
    const first = run('tune', { mode: 'n_p', n, p: 0.01 });
    if (showError(sform, 'systems', first, 'n')) {
      $('#systems-table').classList.add('stale');
      return;
    }
    $('#systems-table').classList.remove('stale');
    const settings = [
      ['RocksDB, 10 bits a key', { mode: 'n_m', n: first.n, m: first.n * 10 }],
      ['Cassandra, 0.01', { mode: 'n_p', n: first.n, p: 0.01 }],
      ['Cassandra, leveled, 0.1', { mode: 'n_p', n: first.n, p: 0.1 }],
    ];
    $('#systems-table tbody').innerHTML = settings.map(([name, req]) => {
      const t = run('tune', req);
      if (t.error) return `<tr><th scope="row">${name}</th><td colspan="5">${escapeHtml(t.error.message)}</td></tr>`;
      return `<tr><th scope="row">${name}</th><td>${t.bits_per_item.toFixed(2)}</td><td>${bytes(t.bytes)}</td><td>${t.k}</td>` +
        `<td>${percentSig(t.fpr_exact)}</td><td>${t.fpr_blocked === undefined ? '' : percentSig(t.fpr_blocked)}</td></tr>`;
    }).join('');
  }

  bform.addEventListener('input', debounce(bip, 120));
  sform.addEventListener('input', debounce(systems, 120));
  for (const f of [bform, sform]) f.addEventListener('submit', (e) => e.preventDefault());
  bip();
  systems();
}
