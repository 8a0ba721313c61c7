// Section 12: which filter? The engine's which operation measures every
// kind on the same items at one target rate; the page asks for one kind a
// call, in the worker, so the table fills in row by row with its progress
// shown and the page keeps answering. The first call also says which kinds
// apply at this rate (the static ones only where their fixed rate meets it).
import { runLater } from '../engine.js';
import * as state from '../state.js';
import { pointsChart } from '../charts.js';
import { clearErrors, debounce, lines, showError } from '../form.js';
import { count, escapeHtml, percentSig, thousands } from '../format.js';
import { usedLines } from './measure.js';
import * as drill from './drill.js';

const defaults = { n: '10,000', p: '1%', probes: '100,000' };
const keys = { items: 'wh_items', n: 'wh_n', p: 'wh_p', probes: 'wh_probes' };

function can(row) {
  const abilities = [['add_later', 'add'], ['remove', 'delete'], ['merge', 'merge'], ['grow', 'grow']]
    .filter(([field]) => row[field]).map(([, word]) => word);
  return abilities.length ? abilities.join(', ') : 'nothing: built once';
}

function rowHtml(r) {
  const interval = `<span>${percentSig(r.measured_fpr)}<br><span class="muted">${percentSig(r.fpr_low)} to ${percentSig(r.fpr_high)}</span></span>`;
  return `<tr data-kind="${escapeHtml(r.kind)}"><td class="text">${escapeHtml(r.kind)}</td><td>${thousands(r.bits)}</td>` +
    `<td>${r.bits_per_item.toFixed(2)}</td><td>${interval}</td><td>${percentSig(r.expected_fpr)}</td>` +
    `<td>${r.build_ns_per_item.toFixed(1)}</td><td>${r.lookup_ns.toFixed(1)}</td><td class="text">${can(r)}</td></tr>`;
}

export function mount(root) {
  const form = root.querySelector('#which-form');
  const $ = (sel) => root.querySelector(sel);
  const source = state.choice(keys.items, ['generated', 'list'], 'generated', 'Items');
  $('#which-items').value = source.value;
  state.showRefused($('#which-items-url'), source.refused, $('#which-items'));
  for (const f of Object.keys(defaults)) $(`#which-${f}`).value = state.get(keys[f], defaults[f]);
  let generation = 0;
  const drills = drill.mount(root);

  // The items: section 2's list as it measures it (the lines it uses), or n.
  function request() {
    const v = Object.fromEntries(Object.keys(defaults).map((f) => [f, $(`#which-${f}`).value]));
    const fromList = $('#which-items').value === 'list';
    $('#which-n').disabled = fromList;
    state.set({
      [keys.items]: fromList ? 'list' : null,
      ...Object.fromEntries(Object.keys(defaults).map((f) => [keys[f], v[f] === defaults[f] ? null : v[f]])),
    });
    const base = { p: v.p, probes: v.probes };
    if (fromList) base.items = lines(usedLines(document.getElementById('measure-list')?.value || '').used.join('\n'));
    else base.n = v.n;
    return base;
  }

  function failed(r) {
    $('#which-table').removeAttribute('aria-busy');
    $('#which-out').classList.add('stale');
    // A refused input is shown beside it; a failed worker, where the progress was.
    $('#which-progress').textContent = r.error.field ? '' : r.error.message;
    if (r.error.field) showError(form, 'which', { error: { ...r.error, field: r.error.field === 'kinds' ? 'p' : r.error.field } }, 'p');
  }

  async function compare() {
    clearErrors(form);
    const gen = ++generation;
    const base = request();
    const tbody = $('#which-table tbody');
    // data-measured names the finished request (items, p, probes) once every
    // row is in, so a reader can wait for the table of the request it means.
    delete $('#which-table').dataset.measured;
    $('#which-table').setAttribute('aria-busy', 'true');
    $('#which-progress').textContent = 'Measuring classic…';
    const first = await runLater('which', { ...base, kinds: ['classic'] });
    if (gen !== generation) return;
    if (first.error) return failed(first);
    $('#which-out').classList.remove('stale');
    tbody.innerHTML = rowHtml(first.rows[0]);
    const rows = [first.rows[0]];
    for (const [i, kind] of first.kinds.entries()) {
      if (i === 0) continue;
      $('#which-progress').textContent = `Measuring kind ${i + 1} of ${first.kinds.length}: ${kind}, ` +
        `${count(first.items, 'item')}, ${thousands(first.probes)} probes…`;
      const r = await runLater('which', { ...base, kinds: [kind] });
      if (gen !== generation) return;
      if (r.error) return failed(r);
      rows.push(r.rows[0]);
      tbody.insertAdjacentHTML('beforeend', rowHtml(r.rows[0]));
    }
    $('#which-progress').textContent = '';
    $('#which-table').removeAttribute('aria-busy');
    $('#which-table').dataset.measured = `${first.items} ${first.p} ${first.probes}`;
    draw(first, rows);
  }

  function draw(r, rows) {
    const missed = rows.filter((w) => w.missed > 0);
    const byKind = Object.fromEntries(rows.map((w) => [w.kind, w]));
    const smallest = rows.filter((w) => w.kind !== 'exact set').reduce((a, b) => (b.bits_per_item < a.bits_per_item ? b : a));
    $('#which-summary').textContent =
      `${count(r.items, 'distinct item')} at a target rate of ${percentSig(r.p)}, each kind asked ${thousands(r.probes)} ` +
      `strings never added. No filter at this rate can use fewer than ${r.floor_bits_per_item.toFixed(2)} bits an item. ` +
      `The smallest here is ${smallest.kind} with ${smallest.bits_per_item.toFixed(2)}` +
      (smallest.kind !== 'classic' ? `; the classic Bloom filter uses ${byKind.classic.bits_per_item.toFixed(2)}. ` : '. ') +
      (missed.length ? missed.map((w) => `${w.kind} missed ${count(w.missed, 'member')} (its table was full).`).join(' ')
        : 'Every kind found every member: none misses an item it holds.');
    $('#which-times').textContent = 'Build and lookup times were measured just now in this browser, by the engine in ' +
      'WebAssembly: they change from run to run and machine to machine. Sizes and rates depend only on the items, the ' +
      'rate and the probes. The exact set counts only the items\' own bytes, without the table around them.';
    $('#which-sizes').innerHTML = '<p>How each was sized:</p><ul>' +
      rows.map((w) => `<li>${escapeHtml(w.kind)}: ${escapeHtml(w.sizing)}</li>`).join('') + '</ul>';
    const kinds = rows.filter((w) => w.expected_fpr > 0);
    pointsChart($('#which-chart'), {
      points: kinds.map((w) => ({ label: w.kind, x: w.expected_fpr, y: w.bits_per_item })),
      line: { label: 'floor, log2(1/p)', x: kinds.map((w) => w.expected_fpr), y: kinds.map((w) => w.floor_bits_per_item) },
      xLabel: 'expected false-positive rate', yLabel: 'bits per item',
    });
  }

  // On a phone the table shows the kind, bits an item and one more column,
  // the one chosen here (lab.css); wider screens show every column.
  $('#which-col').addEventListener('change', () => { $('#which-table').dataset.col = $('#which-col').value; });

  const later = debounce(compare, 400);
  form.addEventListener('input', later);
  form.addEventListener('submit', (e) => e.preventDefault());
  document.addEventListener('measured', () => { if ($('#which-items').value === 'list') later(); });

  // The measurements take a moment: run them when the section is near the screen.
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      seen.disconnect();
      compare().then(drills.run);
    }
  }, { rootMargin: '400px' });
  seen.observe(root);
}
