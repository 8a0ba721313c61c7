// Section 9: sizes real systems choose. The engine's bip37 operation sizes a
// filter as BIP 37 does and rates it with its truncated hash count beside a
// classic filter of the same size; its tune operation gives the rate of
// RocksDB's and Cassandra's settings, classic, split-block and cache-line; its pg_bloom
// operation the rows PostgreSQL's bloom index lets through to its recheck;
// its privacy operation what BIP 37's rate hides from a peer, and for how long.
import { run, runLater, runUnlessGiven } from '../engine.js';
import * as state from '../state.js';
import { clearErrors, debounce, showError } from '../form.js';
import { setUpLater } from '../sections.js';
import { bytes, count, escapeHtml, percentSig, thousands } from '../format.js';

const defaults = { n: '20,000', p: '0.001', keys: '1,000,000',
  pg: { length: '80', col_bits: '2', columns: '6', rows: '1,000,000' } };
const pgFields = ['length', 'col_bits', 'columns', 'rows'];
const privDefaults = { txs: '3,000', own: '2', filters: '2' };

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
  const pform = root.querySelector('#pgb-form');
  const vform = root.querySelector('#priv-form');
  const $ = (sel) => root.querySelector(sel);
  $('#bip-n').value = state.get('bp_n', defaults.n);
  $('#bip-p').value = state.get('bp_p', defaults.p);
  $('#systems-n').value = state.get('sy_n', defaults.keys);
  for (const f of pgFields) $(`#pgb-${f}`).value = state.get(`pg_${f}`, defaults.pg[f]);
  for (const f of Object.keys(privDefaults)) $(`#priv-${f}`).value = state.get(`pv_${f}`, privDefaults[f]);

  // settingUp: the privacy figures come in a task of their own (sections.js).
  function bip(settingUp = false) {
    clearErrors(bform);
    const n = $('#bip-n').value, p = $('#bip-p').value;
    state.set({ bp_n: n === defaults.n ? null : n, bp_p: p === defaults.p ? null : p });
    const r = run('bip37', { n, p });
    if (showError(bform, 'bip', r, 'n')) {
      for (const id of ['#bip-out', '#bip-answer', '#priv-answer', '#priv-steps', '#priv-dial']) $(id).classList.add('stale');
      return;
    }
    if (settingUp) setUpLater(setUpPrivacy);
    else privacy();
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
  // a key, Cassandra the target rate. Each row shows the classic, split-block
  // and cache-line rates (with the cache-line k) the operation gives.
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
      if (t.error) return `<tr><th scope="row">${name}</th><td colspan="6">${escapeHtml(t.error.message)}</td></tr>`;
      return `<tr data-fpr-cache-line="${t.fpr_cache_line}" data-k-cache-line="${t.k_cache_line}"><th scope="row">${name}</th>` +
        `<td>${t.bits_per_item.toFixed(2)}</td><td>${bytes(t.bytes)}</td><td>${t.k}</td>` +
        `<td>${percentSig(t.fpr_exact)}</td><td>${percentSig(t.fpr_blocked)}</td>` +
        `<td>${percentSig(t.fpr_cache_line)}, k = ${t.k_cache_line}</td></tr>`;
    }).join('');
  }

  // PostgreSQL's bloom index: the share of rows a search for an absent value
  // lets through, and how many of the table's rows that is.
  function pgBloom() {
    clearErrors(pform);
    const req = {};
    for (const f of pgFields) {
      req[f] = $(`#pgb-${f}`).value;
      state.set({ [`pg_${f}`]: req[f] === defaults.pg[f] ? null : req[f] });
    }
    const r = run('pg_bloom', req);
    if (showError(pform, 'pgb', r, 'length')) {
      $('#pgb-out').classList.add('stale');
      $('#pgb-answer').classList.add('stale');
      return;
    }
    $('#pgb-out').classList.remove('stale');
    $('#pgb-answer').classList.remove('stale');
    const rows = [
      ['Signature a row', `${count(r.signature_bits, 'bit')} (${count(r.signature_bytes, 'byte')})`, 'signature'],
      ['Bits a row sets (columns × bits a column, repeats allowed)', thousands(r.row_bits), 'row_bits'],
      ['Share of a signature set', percentSig(r.fill), 'fill'],
      ['Rows let through for an absent value (exact)', percentSig(r.share), 'share'],
      ['The fill form, (1 − (1 − 1/L)^D)^c: L signature bits, D bits a row sets, c bits a value asks for', percentSig(r.share_fill), 'share_fill'],
      ['Rows read and thrown away, a search', thousands(Math.round(r.rows_rechecked)), 'rechecked'],
    ];
    $('#pgb-out').innerHTML = rows.map(([k, v, f]) => `<div><dt>${k}</dt><dd data-field="${f}">${v}</dd></div>`).join('');
    $('#pgb-out').dataset.share = String(r.share);
    $('#pgb-out').dataset.signatureBits = String(r.signature_bits);
    // A value whose bits land on fewer distinct places asks for less, and
    // lets more rows through: name the worst such value when it is not rare.
    const fewer = r.by_query_bits.filter((b) => b.t < r.col_bits && b.probability >= 1e-6);
    let text = `A search for a value no row holds reads all ${count(r.rows, 'signature')} and ` +
      `then ${thousands(Math.round(r.rows_rechecked))} rows, ${percentSig(r.share)} of the table, only to throw them away.`;
    if (fewer.length) {
      const worst = fewer[0];
      text += ` Of the values searched for, ${percentSig(worst.probability)} draw ${count(worst.t, 'distinct bit')} ` +
        `and let ${percentSig(worst.share)} of rows through.`;
    }
    $('#pgb-answer').textContent = text;
  }

  // The client's N and P (the form above) against a generated block.
  const privacyRequest = () => {
    const req = { n: $('#bip-n').value, p: $('#bip-p').value };
    for (const f of Object.keys(privDefaults)) req[f] = $(`#priv-${f}`).value;
    return req;
  };
  let privacyDrawn = 0;
  // given: the first figures, computed in the worker (setUpPrivacy), with
  // the request they answer; drawn if the inputs are still those.
  function privacy(given) {
    privacyDrawn++;
    clearErrors(vform);
    const req = privacyRequest();
    for (const f of Object.keys(privDefaults)) state.set({ [`pv_${f}`]: req[f] === privDefaults[f] ? null : req[f] });
    const r = runUnlessGiven(given, 'privacy', req);
    const parts = ['#priv-answer', '#priv-steps', '#priv-dial'];
    if (r.error && (r.error.field === 'n' || r.error.field === 'p')) return;  // shown beside N or P above
    if (showError(vform, 'priv', r, 'txs')) {
      for (const id of parts) $(id).classList.add('stale');
      return;
    }
    for (const id of parts) $(id).classList.remove('stale');
    const last = r.steps[r.steps.length - 1];
    $('#priv-answer').textContent =
      `Each transaction here pays ${count(r.outputs, 'address', 'addresses')} and takes ${count(r.tx_bytes, 'byte')}. ` +
      `The client's filter (${count(r.bytes, 'byte')}, ${count(r.n_hash_funcs, 'hash', 'hashes')}) lets an unrelated ` +
      `transaction through with chance ${percentSig(r.fpr_tx)}. So a block sends about ${thousands(+r.decoys_expected.toFixed(1))} ` +
      `decoys with the client's ${thousands(r.own)}. The client's are ${percentSig(r.own_share_expected)} of what it ` +
      `downloads (${bytes(Math.round(r.download_bytes_expected))}). After ${count(last.filters, 'filter')}, ` +
      `${count(last.decoys, 'decoy')} ${last.decoys === 1 ? 'is' : 'are'} left and the client's make up ` +
      `${percentSig(last.own_share)} of the rest.`;
    $('#priv-steps tbody').innerHTML = r.steps.map((st) =>
      `<tr><th scope="row">${st.filters}</th><td>${thousands(st.decoys)}</td><td>${st.decoys_expected.toFixed(2)}</td>` +
      `<td>${percentSig(st.own_share)}</td></tr>`).join('');
    $('#priv-steps').dataset.decoys = r.steps.map((st) => st.decoys).join(',');
    $('#priv-dial tbody').innerHTML = r.dial.map((d) =>
      `<tr><th scope="row">${d.p}</th><td>${count(d.bytes, 'byte')}, k = ${d.n_hash_funcs}</td>` +
      `<td>${d.decoys_expected.toFixed(1)}</td><td>${percentSig(d.own_share)}</td><td>${bytes(Math.round(d.download_bytes))}</td>` +
      `<td>${d.decoys_after < 0.01 ? d.decoys_after.toExponential(1) : d.decoys_after.toFixed(2)}</td></tr>`).join('');
  }

  // At set-up the privacy figures (a block of transactions, each through
  // the filter) are computed in the worker; unless they were drawn here
  // meanwhile (a change), they are drawn when they come.
  function setUpPrivacy() {
    const req = privacyRequest();
    return runLater('privacy', req).then((report) => {
      if (privacyDrawn === 0) privacy({ request: req, report });
    });
  }

  bform.addEventListener('input', debounce(() => bip(), 120));
  vform.addEventListener('input', debounce(() => privacy(), 120));
  sform.addEventListener('input', debounce(systems, 120));
  pform.addEventListener('input', debounce(pgBloom, 120));
  for (const f of [bform, sform, pform, vform]) f.addEventListener('submit', (e) => e.preventDefault());
  // Each part of the section is set up in a task of its own.
  bip(true);
  setUpLater(systems);
  setUpLater(pgBloom);
}
