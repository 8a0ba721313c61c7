// Section 2: measure a list against 10,000 probes it never held. The engine's
// measure operation gives the table, the totals and the probes that said
// maybe; its stage operation says which items lit a chosen probe's bits.
import { limits, run, runLater, runUnlessGiven } from '../engine.js';
import * as state from '../state.js';
import { lineChart } from '../charts.js';
import { clearErrors, debounce, engineDefault, label, showError } from '../form.js';
import { count, escapeHtml, list, percent, percentFine, thousands } from '../format.js';
import { pack, unpack } from '../packed.js';
import { setUpLater } from '../sections.js';
import fullSample from '../../../data/sample.txt';

// The list the box starts with: the first 150 lines of data/sample.txt, so
// a learner can add their own words under the 200-line limit.
export const sampleLines = 150;
const sample = fullSample.split('\n').slice(0, sampleLines).join('\n') + '\n';
// A list other than the sample is kept in the link, packed (ms_list), up to
// this many characters of it; a longer one is left out, and the page says so.
export const linkCap = 6000;

// The lines the page uses: at most limits().items, and only whole lines within
// limits().chars characters. The text in the box is never changed.
export function usedLines(text) {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const used = [];
  let chars = 0;
  for (const line of lines.slice(0, limits().items)) {
    chars += line.length + 1;
    if (chars - 1 > limits().chars) break;
    used.push(line);
  }
  return { total: lines.length, chars: text.length, used };
}

// The same cleaning as the command line's: trim spaces, tabs and a
// Windows line ending; skip blank lines.
function items(lines) {
  return lines.map((l) => l.replace(/^[ \t\r\f\v]+|[ \t\r\f\v]+$/g, '')).filter((l) => l !== '');
}

export function mount(root) {
  const form = root.querySelector('#measure-form');
  const $ = (sel) => root.querySelector(sel);
  const box = $('#measure-list');
  // Text typed before the engine loaded is the user's: keep it.
  if (box.value === '') box.value = sample;
  $('#measure-m').value = state.get('ms_m', engineDefault('measure', 'm'));
  $('#measure-k').value = state.get('ms_k', engineDefault('measure', 'k'));
  for (const [f, key, fallback, label] of [['hash', 'ms_hash', 'murmur3', 'Hash'], ['scheme', 'ms_scheme', 'enhanced', 'Positions']]) {
    const select = $(`#measure-${f}`);
    const c = state.choice(key, [...select.options].map((o) => o.value), fallback, label);
    select.value = c.value;
    state.showRefused($(`#measure-${f}-url`), c.refused, select);
  }
  let last = null;
  let runs = 0;  // measurements so far, so a test can wait for the next one

  // The list in the link: read once (unpacking is asynchronous, so the
  // sample is measured first), then written after each measurement. Until
  // the link's list is read, the link is left as it came.
  const linked = state.get('ms_list', null);
  let linkRead = linked === null;
  let packing = 0;
  function keepInLink(text) {
    if (!linkRead) return;
    const mine = ++packing;
    const note = $('#measure-list-link');
    if (text === sample) {
      state.set({ ms_list: null });
      note.textContent = '';
      return;
    }
    pack(text).then((v) => {
      if (mine !== packing) return;
      if (v.length > linkCap) {
        state.set({ ms_list: null });
        note.textContent = `Your list is too long to keep in the link: ${thousands(v.length)} characters once packed, ` +
          `and the link keeps up to ${thousands(linkCap)}. The link keeps the settings, not the list.`;
        return;
      }
      state.set({ ms_list: v });
      note.textContent = 'Your list is kept in the link (packed), so a reload or a shared link shows it.';
    });
  }
  if (!linkRead) {
    unpack(linked).then((text) => {
      linkRead = true;
      box.value = text;
      measure();
    }, (err) => {
      linkRead = true;
      state.set({ ms_list: null });
      state.showRefused($('#measure-list-url'), `Your list in the link could not be read (${err.message}); showing the sample list.`, box);
    });
  }

  function params() {
    return {
      m: $('#measure-m').value,
      k: $('#measure-k').value,
      hash: $('#measure-hash').value,
      scheme: $('#measure-scheme').value,
    };
  }

  function limitMessage(info) {
    const parts = [];
    if (info.total > limits().items) parts.push(`${thousands(info.total)} lines`);
    if (info.chars > limits().chars) parts.push(`${thousands(info.chars)} characters`);
    if (!parts.length) return '';
    return `${label(form, 'measure', 'list')}: ${parts.join(' and ')}; the limit is ${limits().items} lines and ${thousands(limits().chars)} characters, ` +
      `so only the first ${thousands(info.used.length)} lines are used. Your text is kept as it is.`;
  }

  // given: the first measurement, made in the worker (below), with the
  // request it answers; it is drawn if the inputs are still those.
  function measure(given) {
    clearErrors(form);
    const p = params();
    const info = usedLines(box.value);
    $('#measure-list-count').textContent =
      `${thousands(info.total)} of ${limits().items} lines, ${thousands(info.chars)} of ${thousands(limits().chars)} characters`;
    $('#measure-list-error').textContent = limitMessage(info);
    state.set({
      ms_m: p.m === engineDefault('measure', 'm') ? null : p.m,
      ms_k: p.k === engineDefault('measure', 'k') ? null : p.k,
      ms_hash: p.hash === 'murmur3' ? null : p.hash,
      ms_scheme: p.scheme === 'enhanced' ? null : p.scheme,
    });
    keepInLink(box.value);
    const list_ = items(info.used);
    const request = { ...p, items: list_, probes: 10000, step: 20 };
    const started = performance.now();
    const r = runUnlessGiven(given, 'measure', request);
    const ms = given && r === given.report ? given.ms : performance.now() - started;
    if (showError(form, 'measure', r, 'list')) {
      $('#measure-out').classList.add('stale');
      versusRun++;
      $('#measure-versus-table tbody').innerHTML = '';
      $('#measure-versus-status').textContent = 'Not measured: the list or the settings above were refused.';
      return;
    }
    $('#measure-out').classList.remove('stale');
    $('#measure-out').dataset.ms = ms.toFixed(1);
    $('#measure-out').dataset.runs = String(++runs);
    last = { report: r, items: list_, params: p };
    draw(r);
    versus(list_, p);
  }

  // The same list and m with k = 1, the best whole k and k = 30, side by
  // side: measured in the worker (k = 30 reads 30 bits for each of 10,000
  // probes), each with the fill the formula expects. The best k is the
  // engine's (the calculator's k for this n and m). Only the latest list's
  // answers are shown.
  let versusRun = 0;
  async function versus(list_, p) {
    const mine = ++versusRun;
    const status = $('#measure-versus-status');
    const best = run('tune', { mode: 'n_m', n: Math.max(1, last.report.n), m: p.m });
    const sides = [1, best.error ? p.k : best.k, 30];
    $('#measure-versus-best').textContent = `best k = ${sides[1]}`;
    status.textContent = `Measuring with k = 1, ${sides[1]} and 30…`;
    $('#measure-versus').setAttribute('aria-busy', 'true');
    const side = async (k) => {
      const r = await runLater('measure', { ...p, k, items: list_, probes: 10000, step: Math.max(1, list_.length) });
      return [r, r.error ? r : await runLater('analyze', { m: r.m, n: r.n, k })];
    };
    const reports = (await Promise.all(sides.map(side))).flat();
    if (mine !== versusRun) return;
    $('#measure-versus').removeAttribute('aria-busy');
    const failed = reports.find((x) => x.error);
    if (failed) {
      status.textContent = `Not measured: ${failed.error.message}`;
      return;
    }
    const [one, oneA, mid, midA, thirty, thirtyA] = reports;
    const row = (what, f) => `<tr><th scope="row">${what}</th><td>${f(one, oneA)}</td><td>${f(mid, midA)}</td><td>${f(thirty, thirtyA)}</td></tr>`;
    $('#measure-versus-table tbody').innerHTML = [
      row('Bits that are 1', (r) => `${thousands(r.bits_set)} of ${thousands(r.m)} (${percent(r.fill, 1)})`),
      row('Fill the formula expects', (r, a) => percent(a.fill_expected, 1)),
      row('Never added, said maybe', (r) => `${thousands(r.false_positives)} of ${thousands(r.probes)}`),
      row('Measured rate', (r) => percentFine(r.fpr_measured)),
      row('Formula', (r) => percentFine(r.fpr_approx)),
      row('Exact', (r) => percentFine(r.fpr_exact)),
    ].join('');
    $('#measure-versus').dataset.fp1 = String(one.false_positives);
    $('#measure-versus').dataset.fpBest = String(mid.false_positives);
    $('#measure-versus').dataset.kBest = String(sides[1]);
    $('#measure-versus').dataset.fp30 = String(thirty.false_positives);
    status.textContent = `Said maybe, of ${thousands(one.probes)}: ${thousands(one.false_positives)} with k = 1, ` +
      `${thousands(mid.false_positives)} with k = ${sides[1]} and ${thousands(thirty.false_positives)} with k = 30.`;
  }

  function draw(r) {
    const lines = [
      `Added ${count(r.n, 'item')}: ${thousands(r.bits_set)} of ${thousands(r.m)} bits are 1 (${percent(r.fill, 1)}).`,
    ];
    if (r.duplicates > 0) lines.push(`${count(r.duplicates, 'repeated line')} added nothing.`);
    lines.push(`Looked up ${thousands(r.probes)} strings never added: ${thousands(r.false_positives)} said maybe, ` +
      `${percent(r.fpr_measured)}. The formula says ${percent(r.fpr_approx)}; the exact value is ${percent(r.fpr_exact)}.`);
    if (r.probes_skipped > 0) lines.push(`${count(r.probes_skipped, 'probe was', 'probes were')} in your list, so not counted.`);
    $('#measure-summary').innerHTML = lines.map((l) => `<span>${escapeHtml(l)}</span>`).join(' ');

    const tbody = $('#measure-table tbody');
    tbody.innerHTML = r.rows.map((row) =>
      `<tr><td>${thousands(row.n)}</td><td>${percentFine(row.fpr_measured)} (${thousands(row.false_positives)})</td>` +
      `<td>${percentFine(row.fpr_approx)}</td><td>${percentFine(row.fpr_exact)}</td></tr>`).join('');

    lineChart($('#measure-chart'), {
      x: r.rows.map((row) => row.n),
      series: [
        { label: 'measured', kind: 'measured', values: r.rows.map((row) => row.fpr_measured) },
        { label: 'formula', kind: 'approx', values: r.rows.map((row) => row.fpr_approx) },
        { label: 'exact', kind: 'exact', dash: [6, 4], values: r.rows.map((row) => row.fpr_exact) },
      ],
      xLabel: 'items added', yLabel: 'false positives',
    });

    const chips = $('#measure-fps');
    chips.innerHTML = '';
    if (!r.false_positive_probes.length) chips.textContent = 'none: every probe met at least one 0.';
    for (const name of r.false_positive_probes) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'chip';
      b.textContent = name;
      b.addEventListener('click', () => why(name));
      chips.appendChild(b);
    }
    $('#measure-why').textContent = '';

    const a = run('analyze', { m: r.m, n: r.n, k: r.k });
    $('#measure-kbest').textContent = a.error || a.k_optimal === null ? '' :
      `for your list, (${thousands(r.m)}/${thousands(r.n)})·ln 2 = ${a.k_optimal.toFixed(2)}.` + pastLimit(r, a.k_optimal);
    root.dispatchEvent(new CustomEvent('measured', { detail: { report: r, analyze: a }, bubbles: true }));
  }

  // When the best k is more than the k field takes, the largest k it takes,
  // found by asking the engine (which holds the limit), to offer instead.
  function pastLimit(r, best) {
    const takes = (k) => !run('analyze', { m: r.m, n: r.n, k }).error;
    let hi = Math.ceil(best);
    if (takes(hi)) return '';
    let lo = r.k;  // taken: it was just measured
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (takes(mid)) lo = mid;
      else hi = mid;
    }
    return ` That is past the largest k allowed here, ${lo}: try k = ${lo}.`;
  }

  // Which added items lit each of a false positive's k bits.
  function why(probe) {
    const { items: list_, params: p } = last;
    const r = run('stage', { ...p, items: list_, queries: [probe] });
    if (r.error) return;
    const q = r.queries[0];
    const rows = q.positions.map((pos, i) => `<li>bit ${pos}: set by ${escapeHtml(list(q.setters[i]))}</li>`).join('');
    $('#measure-why').innerHTML = `<p><strong>${escapeHtml(probe)}</strong> was never added, but all ${q.positions.length} ` +
      `of its bits were already 1:</p><ul>${rows}</ul>`;
  }

  const soon = debounce(() => measure(), 150);
  box.addEventListener('input', soon);
  for (const id of ['#measure-m', '#measure-k']) $(id).addEventListener('input', soon);
  for (const id of ['#measure-hash', '#measure-scheme']) $(id).addEventListener('change', () => measure());
  form.addEventListener('submit', (e) => e.preventDefault());
  // The first measurement is made in the worker, so that setting up the page
  // does not wait here for the engine's 10,000 lookups; unless something was
  // measured here meanwhile (a change), it is drawn when it comes.
  setUpLater(() => {
    const request = { ...params(), items: items(usedLines(box.value).used), probes: 10000, step: 20 };
    const started = performance.now();
    return runLater('measure', request).then((report) => {
      if (runs === 0) measure({ request, report, ms: performance.now() - started });
    });
  });
  return { last: () => last };
}
