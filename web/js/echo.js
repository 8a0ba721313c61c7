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

// What the engine read, as the echo writes it.
function said(r) {
  const n = Number(r.value);
  if (r.as === 'bits') return `${thousands(n)} ${n === 1 ? 'bit' : 'bits'}`;
  if (r.as === 'count') return thousands(n);
  if (r.as === 'rate') {
    const pct = `${+(n * 100).toPrecision(6)}%`;
    return r.one_in >= 2 ? `${pct}, 1 in ${thousands(+r.one_in.toPrecision(6))}` : pct;
  }
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

// Says beside each number input of `form` what the engine reads in it,
// when that is not the text as typed ("10k" = 10,000; "10,000" needs no
// echo). Text the engine cannot read leaves the echo empty: the section's
// own refusal says why, beside the input.
export function echoAll(form) {
  for (const input of form.querySelectorAll('input')) {
    if (!kinds[input.id]) continue;
    const out = echoOf(input);
    const r = understood(input);
    const text = r.error ? '' : said(r);
    const typed = input.value.trim();
    const shown = text && text !== typed && text.replace(/ bits?$/, '') !== typed ? `= ${text}` : '';
    if (out.textContent !== shown) out.textContent = shown;
  }
}
