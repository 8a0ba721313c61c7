// Section 1's drawing as markup: what the view puts on the page for an
// engine's stage report, as strings. Display only, and free of the page
// (no document, no URL), so that web/build.mjs can run it under node on the
// engine's report for the default inputs and write section 1's first
// figures into index.html; the view, once the engine runs in the browser,
// draws the same markup over them (tests/e2e/prerender.spec.mjs checks that
// they are identical).
import { count, escapeHtml, list, percent, percentSig, thousands } from '../format.js';

// The filter section 1 opens with (and Reset returns to).
export const defaults = {
  m: '32',
  k: '3',
  items: ['apple', 'banana', 'cherry', 'grape', 'mango'],
  queries: ['cherry', 'peach', 'papaya'],
};
export const shownItems = 40;

// The engine request for a filter of section 1.
export function stageRequest({ m, k, items, queries, removed = [] }) {
  return { m, k, hash: 'murmur3', scheme: 'enhanced', items, queries, removed };
}

// The grid's columns (its --cols).
export const columns = (r) => String(Math.min(16, r.m));

// The bits; flash: the positions to animate, in order; current: the bit
// that is the grid's Tab stop.
export function bitsHtml(r, flash = [], current = 0) {
  const cleared = new Set(r.cleared);
  let html = '';
  for (let i = 0; i < r.m; i++) {
    const gone = cleared.has(i);
    const on = r.bit_setters[i].length > 0 && !gone;
    const order = flash.indexOf(i);
    html += `<button type="button" class="bit${on ? ' on' : ''}${gone ? ' cleared' : ''}${order >= 0 ? ' flash' : ''}" ` +
      `data-bit="${i}" tabindex="${i === current ? 0 : -1}"${order >= 0 ? ` style="animation-delay: ${order * 180}ms;"` : ''}>` +
      `<span class="sr">bit </span><span class="idx">${i}</span><span class="sr"> is </span>` +
      `<span class="val">${on ? 1 : 0}</span>${gone ? '<span class="why"> cleared</span>' : ''}</button>`;
  }
  return html;
}

// The sentence under the added items (text, not markup).
export function summaryText(r) {
  return r.cleared.length
    ? `${count(r.n, 'item')} went in with ${count(r.k, 'hash', 'hashes')} each; after the removal ` +
      `${thousands(r.bits_set)} of the ${thousands(r.m)} bits are 1 (${percent(r.fill, 1)}). ` +
      `For ${count(r.n, 'item')} the fill formula below expects ${percent(r.fill_expected, 1)}.`
    : `${count(r.n, 'item')} with ${count(r.k, 'hash', 'hashes')} each set ` +
      `${thousands(r.bits_set)} of the ${thousands(r.m)} bits (${percent(r.fill, 1)}); ` +
      `the fill formula below expects ${percent(r.fill_expected, 1)}.`;
}

// This filter's own odds beside the lookups: fill^k for these bits, then
// the formula and the exact value, which average over all such filters
// (text, not markup).
export function oddsText(r) {
  return `A word never added reads all 1s when each of its ${count(r.k, 'bit')} lands on a 1: in these bits, ` +
    `fill${r.k > 1 ? `^${r.k}` : ''} = ${percentSig(r.fpr_current)}. Over every filter of ${count(r.n, 'item')} in ` +
    `${thousands(r.m)} bits, the formula gives ${percentSig(r.fpr_approx)} and the exact value ${percentSig(r.fpr_exact)}.`;
}

// The added items, the first shownItems of them; current: the list's Tab stop.
export function itemsHtml(r, current = 0) {
  const shown = r.items.slice(0, shownItems);
  let html = '';
  for (const [i, it] of shown.entries()) {
    let note = '';
    if (it.removed) note = ' <span class="lost">removed</span>';
    else if (!it.reads_maybe) note = ' <span class="lost">now reads no: a false negative</span>';
    html += `<li data-item="${i}"${it.removed ? ' class="removed"' : ''} tabindex="${i === current ? 0 : -1}">` +
      `<strong>${escapeHtml(it.text)}</strong> → bits ${it.positions.join(', ')}` +
      ` <span class="muted">(${it.fresh} new)</span>${note}</li>`;
  }
  if (r.items.length > shownItems) html += `<li class="muted">… and ${thousands(r.items.length - shownItems)} more</li>`;
  return html;
}

// The lookups, each with its verdict; current: the list's Tab stop.
export function queriesHtml(r, current = 0) {
  let html = '';
  for (const [i, q] of r.queries.entries()) {
    let cls = q.maybe ? (q.member ? 'member' : 'false-positive') : 'absent';
    const reads = q.lit.map((b) => (b ? 1 : 0)).join(' ');
    let verdict;
    if (!q.maybe && q.member) {
      cls = 'false-negative';
      verdict = `<strong>no</strong>, but it was added: bit ${q.positions[q.lit.indexOf(false)]} was cleared by the removal. A false negative.`;
    } else if (!q.maybe) {
      verdict = `<strong>definitely not</strong>: bit ${q.positions[q.lit.indexOf(false)]} is 0, so it was never added.`;
    } else if (q.member) {
      verdict = '<strong>maybe</strong>, and rightly: it was added.';
    } else {
      const why = q.positions.map((p, j) => `bit ${p} by ${list(q.setters[j])}`).join('; ');
      verdict = `<strong>maybe</strong>, but it was never added: a false positive. Its bits were set by others: ${escapeHtml(why)}.`;
    }
    html += `<li data-query="${i}" class="${cls}" tabindex="${i === current ? 0 : -1}">` +
      `<span class="q">${escapeHtml(q.text)}</span> reads bits ${q.positions.join(', ')}: ` +
      `<span class="reads">${reads}</span>. ${verdict}</li>`;
  }
  return html;
}

// What the removals did: the bits cleared, who else had set them, and
// which added items now read "no" (empty when nothing was removed).
export function removalHtml(r) {
  const gone = r.items.filter((it) => it.removed);
  if (!gone.length) return '';
  const cleared = new Set(r.cleared);
  const lost = r.items.filter((it) => !it.removed && !it.reads_maybe);
  const shared = r.cleared.map((p) => ({ p, others: r.bit_setters[p].map((j) => r.items[j]).filter((it) => !it.removed) }))
    .filter((x) => x.others.length);
  const parts = [`<p>Removing ${escapeHtml(list(gone.map((it) => it.text)))} cleared ${count(r.cleared.length, 'bit')}: ` +
    `${r.cleared.join(', ')}.</p>`];
  if (shared.length) {
    parts.push(`<p>${escapeHtml(shared.map((x) => `Bit ${x.p} was also set by ${list(x.others.map((it) => it.text))}`).join('. '))}.</p>`);
  }
  if (lost.length) {
    const why = lost.map((it) => `${it.text} (bit ${it.positions.filter((p) => cleared.has(p)).join(', ')})`);
    parts.push(`<p><strong>${escapeHtml(list(lost.map((it) => it.text)))} ${lost.length === 1 ? 'was' : 'were'} added but now ` +
      `${lost.length === 1 ? 'reads' : 'read'} no</strong>: ${escapeHtml(list(why))}. A plain Bloom filter cannot tell whose bit ` +
      'it clears, so removing one item can make others vanish: a false negative, the one answer it promised never to give. ' +
      'Section 4 shows the counting filter that can remove.</p>');
  } else {
    parts.push('<p>This time no other item shared those bits, so none was lost; remove one whose bits others also set ' +
      '(tap a bit to see who set it) and another item will read no.</p>');
  }
  parts.push('<p class="muted">Add it again, or Reset, to put its bits back.</p>');
  return parts.join('');
}
