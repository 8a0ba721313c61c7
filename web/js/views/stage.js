// Section 1: a small filter drawn bit by bit. The engine's stage operation
// gives every item's positions, the bits that are set, who set each bit, and
// what each lookup reads. The markup drawn is stage-markup.js's, which the
// site's build also writes into the page for the default inputs: the page
// then shows section 1's figures before any script runs, and this view,
// once mounted, draws the same markup over them (or, when the link asks
// for another filter, replaces them, which the page kept hidden till then).
import { limits as engineLimits, run } from '../engine.js';
import * as state from '../state.js';
import { checkRange, clearErrors, label, showError } from '../form.js';
import { count, list, thousands } from '../format.js';
import { roving } from '../roving.js';
import { bitsHtml, columns, defaults, itemsHtml, oddsText, queriesHtml, removalHtml, stageRequest, summaryText } from './stage-markup.js';

const maxQueries = 8;

export function mount(root) {
  const form = root.querySelector('#stage-form');
  const $ = (sel) => root.querySelector(sel);
  const s = {
    m: state.get('st_m', defaults.m),
    k: state.get('st_k', defaults.k),
    items: splitList(state.get('st_add', null), defaults.items),
    queries: splitList(state.get('st_look', null), defaults.queries),
    removed: splitList(state.get('st_rm', null), []),
    flash: null,  // the item or query whose bits to animate
    found: null,  // the engine's last false-positive search, while the filter is the one it searched
    report: null,
  };
  $('#stage-m').value = s.m;
  $('#stage-k').value = s.k;
  // A removal in the link is of an added item, as the Remove button's is.
  const strays = s.removed.filter((w) => !s.items.includes(w));
  if (strays.length) {
    s.removed = s.removed.filter((w) => s.items.includes(w));
    state.showRefused($('#stage-rm-url'), `Removed, in the link: ${list(strays.map((w) => `'${state.shown(w)}'`))} ` +
      `${strays.length === 1 ? 'is not an added item' : 'are not added items'}; allowed: added items only. Left out.`, $('#stage-word'));
  }

  // The keyboard: the bits are one Tab stop (arrow keys move by bit and by
  // row, as the grid is laid out), and so are the added items and the
  // lookups (Up and Down); the focus explains or highlights as the mouse does.
  const bitsBox = $('#stage-bits');
  const gridColumns = () => getComputedStyle(bitsBox).gridTemplateColumns.split(' ').filter(Boolean).length;
  const setBit = roving(bitsBox, '.bit', { columns: gridColumns, onMove: (el, i) => explainBit(i) });
  const setItem = roving($('#stage-items'), 'li[data-item]', { onMove: (el) => light(el, 'item') });
  // Delete on an added item removes it, as typing it and pressing Remove does.
  $('#stage-items').addEventListener('keydown', (e) => {
    const li = e.target.closest('li[data-item]');
    if (!li || (e.key !== 'Delete' && e.key !== 'Backspace')) return;
    e.preventDefault();
    $('#stage-word').value = s.report.items[+li.dataset.item].text;
    $('#stage-remove').click();
  });
  const setQuery = roving($('#stage-queries'), 'li[data-query]', { onMove: (el) => light(el, 'query') });
  let bitAt = 0;

  function save() {
    state.set({
      st_m: s.m === defaults.m ? null : s.m,
      st_k: s.k === defaults.k ? null : s.k,
      st_add: same(s.items, defaults.items) ? null : s.items.join('\n'),
      st_look: same(s.queries, defaults.queries) ? null : s.queries.join('\n'),
      st_rm: s.removed.length ? s.removed.join('\n') : null,
    });
  }

  // The stage's own bounds (8..256 bits, 1..10 hashes) keep the drawing
  // legible; everything else is checked by the engine.
  function render() {
    clearErrors(form);
    const okM = checkRange(form, 'stage', 'm'), okK = checkRange(form, 'stage', 'k');
    if (!okM || !okK) return false;
    s.m = $('#stage-m').value.trim();
    s.k = $('#stage-k').value.trim();
    const removed = s.removed.filter((w) => s.items.includes(w));
    const report = run('stage', stageRequest({ m: s.m, k: s.k, items: s.items, queries: s.queries, removed }));
    if (showError(form, 'stage', report, 'word')) return false;
    s.report = report;
    s.removed = removed;
    save();
    drawBits(report);
    drawItems(report);
    drawQueries(report);
    drawRemoval(report);
    drawFound(report);
    unlight();
    lightFlash();
    root.dispatchEvent(new CustomEvent('staged', { detail: { report }, bubbles: true }));
    return true;
  }

  function drawBits(r) {
    const box = $('#stage-bits');
    box.style.setProperty('--cols', columns(r));
    const at = Math.min(bitAt, r.m - 1);
    box.innerHTML = bitsHtml(r, flashPositions(r), at);
    for (const b of box.querySelectorAll('.bit')) {
      const i = +b.dataset.bit;
      b.addEventListener('mouseenter', () => explainBit(i));
      b.addEventListener('click', () => explainBit(i));
    }
    setBit(at);
    $('#stage-summary').textContent = summaryText(r);
    $('#stage-odds').textContent = oddsText(r);
  }

  function flashPositions(r) {
    if (!s.flash) return [];
    const src = s.flash.kind === 'item' ? r.items : r.queries;
    const hit = src.find((x) => x.text === s.flash.text);
    return hit ? hit.positions : [];
  }

  function explainBit(i) {
    const r = s.report;
    bitAt = i;
    unlight();
    const names = r.bit_setters[i].map((j) => r.items[j].text);
    $('#stage-bit-info').textContent = r.cleared.includes(i)
      ? `Bit ${i} is 0: set by ${list(names)}, then cleared by the removal.`
      : names.length ? `Bit ${i} is 1: set by ${list(names)}.` : `Bit ${i} is 0: no item has hashed to it.`;
    for (const b of root.querySelectorAll('.bit.focus')) b.classList.remove('focus');
    root.querySelector(`.bit[data-bit="${i}"]`).classList.add('focus');
  }

  function highlight(positions) {
    for (const b of root.querySelectorAll('.bit.focus')) b.classList.remove('focus');
    for (const p of positions) root.querySelector(`.bit[data-bit="${p}"]`)?.classList.add('focus');
  }

  function unlight() {
    for (const li of root.querySelectorAll('li.lit')) li.classList.remove('lit');
    lines = null;
    $('#stage-lines').replaceChildren();
  }

  // Lines from a word in the lists to each of its bits in the grid, over
  // both (an SVG the size of the board). Redrawn when the layout changes.
  let lines = null;
  function drawLines() {
    const svg = $('#stage-lines');
    svg.replaceChildren();
    if (!lines || !lines.from.isConnected) return;
    const board = svg.getBoundingClientRect();
    const from = lines.from.getBoundingClientRect();
    const x1 = from.left - board.left + Math.min(from.width / 2, 24), y1 = from.top - board.top;
    const ns = 'http://www.w3.org/2000/svg';
    const dot = (x, y) => {
      const c = document.createElementNS(ns, 'circle');
      c.setAttribute('cx', x.toFixed(1));
      c.setAttribute('cy', y.toFixed(1));
      c.setAttribute('r', '3.5');
      svg.appendChild(c);
    };
    for (const p of new Set(lines.positions)) {
      const bit = root.querySelector(`.bit[data-bit="${p}"]`);
      if (!bit) continue;
      const b = bit.getBoundingClientRect();
      const x2 = b.left - board.left + b.width / 2, y2 = b.bottom - board.top - 4;
      const l = document.createElementNS(ns, 'line');
      for (const [k, v] of [['x1', x1], ['y1', y1], ['x2', x2], ['y2', y2]]) l.setAttribute(k, v.toFixed(1));
      svg.appendChild(l);
      dot(x2, y2);
    }
    dot(x1, y1);
  }
  window.addEventListener('resize', drawLines);

  // An item's or a lookup's bits, marked in the grid, with a sentence that
  // says which (the live line under the grid).
  function light(li, kind) {
    const r = s.report;
    const x = kind === 'item' ? r.items[+li.dataset.item] : r.queries[+li.dataset.query];
    unlight();
    li.classList.add('lit');
    highlight(x.positions);
    lines = { from: li.querySelector('strong, .q') || li, positions: x.positions };
    drawLines();
    $('#stage-bit-info').textContent = `${x.text} ${kind === 'item' ? 'set' : 'reads'} bits ${list(x.positions.map(String))}, marked in the grid and joined to it by lines.`;
  }

  // After Add or Look up, the word's entry is lit: its lines drawn.
  function lightFlash() {
    if (!s.flash) return;
    const src = s.flash.kind === 'item' ? s.report.items : s.report.queries;
    const i = src.findIndex((x) => x.text === s.flash.text);
    const li = i < 0 ? null : root.querySelector(s.flash.kind === 'item' ? `li[data-item="${i}"]` : `li[data-query="${i}"]`);
    if (li) light(li, s.flash.kind);
  }

  function drawItems(r) {
    const ul = $('#stage-items');
    ul.innerHTML = itemsHtml(r, 0);
    for (const li of ul.querySelectorAll('li[data-item]')) li.addEventListener('mouseenter', () => light(li, 'item'));
    setItem(0);
  }

  function drawQueries(r) {
    const ul = $('#stage-queries');
    ul.innerHTML = queriesHtml(r, 0);
    for (const li of ul.querySelectorAll('li[data-query]')) li.addEventListener('mouseenter', () => light(li, 'query'));
    setQuery(0);
  }

  // What the removals did: the bits cleared, who else had set them, and
  // which added items now read "no". Every fact here is in the report.
  function drawRemoval(r) {
    $('#stage-removal').innerHTML = removalHtml(r);
  }

  // A full filter says maybe to every word; otherwise the last search for
  // a false positive, while it still stands for the filter drawn.
  function drawFound(r) {
    const box = $('#stage-found');
    box.classList.toggle('full', r.bits_set === r.m);
    if (r.bits_set === r.m) {
      box.textContent = `All ${thousands(r.m)} bits are 1. This filter now says maybe to every word, added or not.`;
      return;
    }
    const f = s.found;
    if (!f) box.textContent = '';
    else if (f.word === null) box.textContent = `None of ${count(f.tried, 'word')} never added reads maybe here. Add more items, then try again.`;
    else {
      const q = r.queries.find((x) => x.text === f.word);
      box.textContent = q && q.maybe && !q.member
        ? `${f.word} was never added, yet ${r.k === 1 ? 'its one bit is' : `all ${r.k} of its bits are`} 1, so the filter says maybe. ` +
          `The engine tried ${count(f.tried, 'word')} to find it.`
        : '';
    }
  }

  function word() {
    const w = $('#stage-word').value.trim();
    if (!w) {
      clearErrors(form);
      $('#stage-word-error').textContent = `${label(form, 'stage', 'word')}: empty; type a word to add or look up`;
      $('#stage-word').setAttribute('aria-invalid', 'true');
      return null;
    }
    return w;
  }

  $('#stage-add').addEventListener('click', () => {
    const w = word();
    if (w === null) return;
    const fresh = !s.items.includes(w);
    if (fresh) s.items.push(w);
    // Adding a removed word sets its bits again.
    s.removed = s.removed.filter((x) => x !== w);
    s.flash = { kind: 'item', text: w };
    // A word past the engine's limit on items is refused and taken back out,
    // so the filter drawn stays the last one it accepted.
    if (!render() && fresh) s.items.pop();
  });
  // Several words at once, separated by commas: each becomes a lookup.
  $('#stage-look').addEventListener('click', () => {
    const w = word();
    if (w === null) return;
    const words = [...new Set(w.split(',').map((x) => x.trim()).filter(Boolean))].slice(0, maxQueries);
    s.queries = [...words, ...s.queries.filter((q) => !words.includes(q))].slice(0, maxQueries);
    s.flash = { kind: 'query', text: words[0] };
    render();
  });
  $('#stage-remove').addEventListener('click', () => {
    const w = word();
    if (w === null) return;
    if (!s.items.includes(w)) {
      $('#stage-word-error').textContent = `${label(form, 'stage', 'word')}: '${w}' is not an added item; ` +
        `allowed: one of the added items (${list(s.items.slice(0, 8))}${s.items.length > 8 ? ', …' : ''})`;
      $('#stage-word').setAttribute('aria-invalid', 'true');
      return;
    }
    if (!s.removed.includes(w)) s.removed.push(w);
    s.flash = { kind: 'item', text: w };
    render();
  });
  // The engine looks up words never added ("probe-1", "probe-2", ...) in
  // these bits until one reads maybe, and it becomes the first lookup.
  $('#stage-find').addEventListener('click', () => {
    clearErrors(form);
    const removed = s.removed.filter((w) => s.items.includes(w));
    const r = run('stage', { ...stageRequest({ m: s.m, k: s.k, items: s.items, queries: [], removed }),
      find_false_positive: engineLimits().stage_search });
    if (showError(form, 'stage', r, 'word')) return;
    s.found = { word: r.false_positive, tried: r.probes_tried };
    if (r.false_positive !== null) {
      s.queries = [r.false_positive, ...s.queries.filter((q) => q !== r.false_positive)].slice(0, maxQueries);
      s.flash = { kind: 'query', text: r.false_positive };
    }
    render();
  });
  $('#stage-word').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      $('#stage-add').click();
    }
  });
  // Adds made-up words until the engine reports every bit set: then every
  // lookup says maybe. Along f fillers the engine's answers run: some bits
  // still 0, then all set, then refused (past its limit on items); doubling
  // f, then halving the gap, finds the first f that is not "some bits 0" in
  // about 20 calls. Refused there, it keeps the last f it accepted and says so.
  $('#stage-fill').addEventListener('click', () => {
    const start = s.items.filter((x) => x.startsWith('filler-')).length;
    const list = (f) => [...s.items, ...Array.from({ length: f }, (_, j) => `filler-${start + j + 1}`)];
    const ask = (f) => run('stage', stageRequest({ m: s.m, k: s.k, items: list(f), queries: [] }));
    const partial = (r) => !r.error && r.bits_set < r.m;
    let lo = 0, hi = 4, r = ask(0);
    if (partial(r)) {
      while (partial(r = ask(hi))) lo = hi, hi *= 2;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        const rm = ask(mid);
        if (partial(rm)) lo = mid;
        else hi = mid, r = rm;
      }
      s.items = list(r.error ? lo : hi);
    }
    s.flash = null;
    render();
    if (r.error) {
      $('#stage-word-error').textContent = `Fill every bit stopped at ${count(s.items.length, 'item')} with ` +
        `${thousands(s.report.bits_set)} of ${thousands(s.report.m)} bits set: ${r.error.message}. Try a smaller m or a larger k.`;
    }
  });
  $('#stage-reset').addEventListener('click', () => {
    s.found = null;
    s.items = [...defaults.items];
    s.queries = [...defaults.queries];
    s.removed = [];
    s.flash = null;
    $('#stage-m').value = defaults.m;
    $('#stage-k').value = defaults.k;
    render();
  });
  for (const f of ['m', 'k']) $(`#stage-${f}`).addEventListener('input', () => { s.flash = null; render(); });
  form.addEventListener('submit', (e) => e.preventDefault());

  // The view's own drawing replaces the one that came with the page (the
  // same, for the default inputs), and shows if the page hid it. A link
  // whose inputs are refused gets its error beside them and no filter drawn.
  if (!render()) {
    for (const id of ['bits', 'removal', 'items', 'summary', 'queries', 'odds']) $(`#stage-${id}`).replaceChildren();
  }
  delete root.dataset.prerendered;
  document.documentElement.classList.remove('stage-stale');
  return { report: () => s.report };
}

function splitList(text, fallback) {
  if (text === null) return [...fallback];
  return text.split('\n').map((x) => x.trim()).filter(Boolean);
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
