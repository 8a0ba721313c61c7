// Numbers as people type them (64KiB, 10k, 1 in 1000), read by the engine
// and said back beside the input: "= 524,288 bits", "= 10,000", "= 0.1%".
// The page reads no number itself: the engine's parse operation reads each
// input's text as the operation the input goes to reads it, so what is
// echoed is what the section computes with.
import { parse } from './engine.js';
import { thousands } from './format.js';

// The kind of number each input holds, as the engine's operations read that
// field (parse.hpp): a count (10k, 4M, 1e6), a size in bits (64KiB, 1.5 GB,
// 4 Mb), a rate (1 in 1000, 0.1%, 1e-3) or a real number. Inputs not listed
// hold no such number (words, or the drill's target, which may be negative).
const kinds = {
  'stage-m': 'bits', 'stage-k': 'count',
  'measure-m': 'bits', 'measure-k': 'count',
  'tune-n': 'count', 'tune-p': 'rate', 'tune-m': 'bits', 'tune-k': 'count',
  'schemes-n': 'count', 'schemes-k': 'count', 'schemes-pow': 'bits', 'schemes-prime': 'bits', 'schemes-seed': 'count',
  'walk-m': 'bits', 'walk-k': 'count', 'walk-h1': 'count', 'walk-step': 'count',
  'removal-m': 'bits', 'removal-k': 'count', 'overflow-width': 'count', 'overflow-m': 'bits',
  'cuckoo-buckets': 'count', 'cuckoo-fingerprint_bits': 'count',
  'combine-m': 'bits', 'combine-k': 'count',
  'growing-n': 'count', 'growing-n0': 'count', 'growing-p0': 'rate', 'growing-s': 'real', 'growing-r': 'rate',
  'bip-n': 'count', 'bip-p': 'rate',
  'priv-txs': 'count', 'priv-own': 'count', 'priv-filters': 'count',
  'systems-n': 'count',
  'pgb-length': 'count', 'pgb-col_bits': 'count', 'pgb-columns': 'count', 'pgb-rows': 'count',
  'database-banned': 'count', 'database-traffic': 'count', 'database-share': 'rate', 'database-p': 'rate',
  'database-unban': 'count', 'database-seed': 'count',
  'attack-m': 'bits', 'attack-k': 'count', 'attack-seed': 'count',
  'which-n': 'count', 'which-p': 'rate', 'which-probes': 'count',
  'drill-m': 'bits', 'drill-k': 'count', 'drill-trials': 'count', 'drill-seed': 'count',
};

// The engine's reading of an input's text: { as, value } (a rate's with
// one_in), or { error } naming the field by the input's name. range [lo, hi]
// bounds a count or a size (the limits operation's, for a drawing).
export function understood(input, range) {
  const as = kinds[input.id];
  if (!as) throw new Error(`#${input.id} holds no number the engine reads`);
  const request = { as, text: input.value, field: input.name };
  if (range) [request.lo, request.hi] = range;
  return parse(request);
}

// What the engine read, as the echo writes it, or '' when that is the text
// as typed: "2000", "2,000" or "1%" need no echo; "2k", "0.01" do.
function said(input, r) {
  if (r.error) return '';
  const n = Number(r.value);
  const typed = input.value.trim();
  if (r.as === 'rate') {
    const pct = `${+(n * 100).toPrecision(6)}%`;
    if (typed.replace(/ /g, '') === pct) return '';
    return r.one_in >= 2 ? `${pct}, 1 in ${thousands(+r.one_in.toPrecision(6))}` : pct;
  }
  if (typed.replace(/[,_ ]/g, '') === String(n)) return '';
  if (r.as === 'bits') return `${thousands(n)} ${n === 1 ? 'bit' : 'bits'}`;
  if (r.as === 'count') return thousands(n);
  return String(+n.toPrecision(12));
}

// The echo beside an input, made on first use: an <output> (a polite live
// region) after the input, which the input names as describing it.
function echoOf(input) {
  let out = document.getElementById(`${input.id}-echo`);
  if (out) return out;
  out = document.createElement('output');
  out.id = `${input.id}-echo`;
  out.className = 'echo';
  out.htmlFor = input.id;
  out.setAttribute('aria-live', 'polite');
  input.after(out);
  const described = input.getAttribute('aria-describedby');
  input.setAttribute('aria-describedby', described ? `${described} ${out.id}` : out.id);
  return out;
}

function echo(input) {
  if (!kinds[input.id]) return;
  const out = echoOf(input);
  const text = said(input, understood(input));
  const shown = text ? `= ${text}` : '';
  if (out.textContent !== shown) out.textContent = shown;
}

// Says beside each number input under `root` what the engine reads in it,
// when that is not the text as typed. Text the engine cannot read leaves
// the echo empty: the section's own refusal says why, beside the input.
export function echoAll(root) {
  for (const input of root.querySelectorAll('input')) echo(input);
}

// A section's echoes, from when it is set up: each input's as it is typed
// in (before the section's own, perhaps later, computation), and every
// input's whenever the view clears its form to compute (form.js), which
// also covers values the view sets itself (presets, a link's values).
export function watch(root) {
  echoAll(root);
  root.addEventListener('input', (e) => {
    if (e.target instanceof HTMLInputElement) echo(e.target);
  });
}
