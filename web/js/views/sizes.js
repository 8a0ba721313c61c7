// Section 9: sizes real systems choose. The engine's bip37 operation sizes a
// filter as BIP 37 does and rates it with its truncated hash count beside a
// classic filter of the same size; its tune operation gives the rate of
// RocksDB's and Cassandra's settings, classic and blocked.
import { run } from '../engine.js';
import * as state from '../state.js';
import { clearErrors, debounce, showError } from '../form.js';
import { bytes, count, escapeHtml, percentSig, thousands } from '../format.js';

const defaults = { n: '20,000', p: '0.001', keys: '1,000,000' };

// A rate over its target by less than a tenth is "a hair over"; past that
// the words say how many times over it is.
function hair(rate, target) {
  return rate / target < 1.1;
}

function over(rate, target) {
  const times = rate / target;
  return hair(rate, target) ? 'a hair over' : `about ${thousands(+times.toPrecision(2))} times the target`;
}

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
      ['Size', `${count(r.size_bytes, 'byte')}${capped(r.capped_size, '36,000 bytes')}`, 'size'],
      ['Hash functions', `${r.n_hash_funcs}${capped(r.capped_hashes, '50')}` +
        (r.n_hash_funcs === 0 ? ' <span class="flag">matches every item</span>' : ''), 'hashes'],
      ['Expected rate (the formula), with that many hashes', percentSig(r.fpr_expected, 5), 'rate'],
      [`Same size, best whole k (${r.k_best_same_size}), the formula`, percentSig(r.fpr_best_k_same_size, 5), 'best'],
    ];
    $('#bip-out').innerHTML = rows.map(([k, v, f]) => `<div><dt>${k}</dt><dd data-field="${f}">${v}</dd></div>`).join('');
    $('#bip-out').dataset.size = String(r.size_bytes);
    $('#bip-out').dataset.hashes = String(r.n_hash_funcs);
    const target = +(r.p * 100).toPrecision(6) + '%';
    const hashes = count(r.n_hash_funcs, 'hash', 'hashes');
    let text = `Does ${count(r.size_bytes, 'byte')} hold ${count(r.n, 'item')} under ${target}? ` +
      (r.fpr_expected <= r.p ? `<strong>Yes</strong>: ${percentSig(r.fpr_expected, 5)}.`
        : `<strong>${hair(r.fpr_expected, r.p) ? 'Not quite' : 'No'}</strong>: with ${hashes} it gives ` +
          `${percentSig(r.fpr_expected, 5)}, ${over(r.fpr_expected, r.p)}.`);
    // What the BIP's caps and truncation did to this filter.
    const caps = [];
    if (r.capped_size) caps.push(`the BIP caps a filter at 36,000 bytes, less than ${count(r.n, 'item')} at ${target} need`);
    if (r.capped_hashes) caps.push('it caps the hash functions at 50');
    if (r.n_hash_funcs === 0) {
      caps.push('its hash count, bytes · 8 / N · ln 2, comes to under 1 and is cut to 0: ' +
        'a filter with no hashes sets no bit and matches every item');
    } else if (r.k_best_same_size > r.n_hash_funcs && !r.capped_hashes) {
      caps.push(`the BIP cuts its hash count down to a whole number, ${r.n_hash_funcs}, where ${r.k_best_same_size} is best for this size`);
    }
    if (caps.length && r.fpr_expected > r.p) text += ` Why: ${caps.join('; ')}.`;
    if (r.k_best_same_size !== r.n_hash_funcs) {
      text += ` The same bytes with ${count(r.k_best_same_size, 'hash', 'hashes')} would give ${percentSig(r.fpr_best_k_same_size, 5)}` +
        (r.fpr_best_k_same_size > r.p ? `, still ${over(r.fpr_best_k_same_size, r.p)}.` : '.');
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
