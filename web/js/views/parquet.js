// Section 13: the filters in your Parquet files. The user drops or picks a
// Parquet file (or takes the sample DuckDB wrote); the page reads its first
// bytes and its end with the File API, in the browser, and the engine's
// parquet operation (the code `bloomlab parquet` runs) reads the footer and
// every filter and gives each one's figures and verdict. The page writes
// them out and draws each filter's fill beside the fill the writers' sizing
// plans for its values. A value typed in the box is asked of every row
// group's filter of the chosen column, read by the column's physical type.
//
// When a file's report is drawn, #parquet-out gets data-file (its name)
// and data-done; when a probe's answers are drawn, data-probed
// ("column=value"). Tests wait for those.
import { limits, parquet } from '../engine.js';
import { clearErrors, debounce, showError } from '../form.js';
import { count, escapeHtml, percent, percentSig, thousands } from '../format.js';

// What a probe of each physical type is, for the hint (the engine says the
// exact range when it refuses one).
const typeHints = {
  INT32: 'a whole number (INT32)',
  INT64: 'a whole number (INT64)',
  FLOAT: 'a number (FLOAT)',
  DOUBLE: 'a number (DOUBLE)',
  BYTE_ARRAY: 'any text (BYTE_ARRAY)',
  FIXED_LEN_BYTE_ARRAY: 'text of the column\'s fixed length (FIXED_LEN_BYTE_ARRAY)',
};

const verdictClass = { 'about right': 'ok', oversized: 'warn', 'too full': 'bad' };

function round(n) {
  return thousands(Math.round(n));
}

// The fill beside the writers' plan: two bars on one scale (0 to 100%).
function fillBars(b) {
  const bar = (share, cls) => `<span class="bar ${cls}"><span style="width:${(share * 100).toFixed(1)}%"></span></span>`;
  return `<span class="fills"><span class="fill-line">${bar(b.fill, 'its')}<span>${percent(b.fill, 1)} full</span></span>` +
    ` <span class="fill-line">${bar(b.writers_sizing.fill, 'plan')}<span class="muted">planned ${percent(b.writers_sizing.fill, 1)} ` +
    `in ${thousands(b.writers_sizing.bytes)} bytes</span></span></span>`;
}

function distinctCell(b) {
  if (b.estimated_distinct === null) return 'unknown (every bit set)';
  const high = b.estimated_distinct_high === null ? 'any number' : round(b.estimated_distinct_high);
  return `<span>${round(b.estimated_distinct)}<br><span class="muted">${round(b.estimated_distinct_low)} to ${high}</span></span>`;
}

function rowHtml(g, c) {
  const b = c.bloom_filter;
  const head = `<tr data-row-group="${g.row_group}" data-column="${escapeHtml(c.path)}"${b ? ` data-verdict="${b.verdict}"` : ''}>` +
    `<td>${g.row_group}</td><td class="text">${escapeHtml(c.path)}<br><span class="muted">${c.physical_type}</span></td>` +
    `<td>${thousands(c.num_values)}</td><td>${c.distinct_count === null ? 'not given' : thousands(c.distinct_count)}</td>`;
  if (!b) return `${head}<td>none</td><td class="text">no Bloom filter</td><td>–</td><td>–</td><td class="text">–</td></tr>`;
  return `${head}<td><span>${count(b.bytes, 'byte')}<br><span class="muted">${count(b.blocks, 'block')}</span></span></td>` +
    `<td class="text">${fillBars(b)}</td><td>${distinctCell(b)}</td><td>${percentSig(b.fpr_at_fill)}</td>` +
    `<td class="text"><span><strong class="verdict ${verdictClass[b.verdict]}">${b.verdict}</strong><br>` +
    `<span class="muted">${escapeHtml(b.verdict_text)}</span></span></td></tr>`;
}

export function mount(root) {
  const $ = (sel) => root.querySelector(sel);
  const form = $('#parquet-form');
  const probeForm = $('#parquet-probe-form');
  const out = $('#parquet-out');
  let file = null;       // { name, size, head, tail }: what was read
  let report = null;
  let generation = 0;

  // The file's first 4 bytes and its last ones, as much as the engine takes.
  async function readEnds(blob, name) {
    const most = limits().parquet_tail;
    const head = new Uint8Array(await blob.slice(0, Math.min(4, blob.size)).arrayBuffer());
    const tail = new Uint8Array(await blob.slice(Math.max(0, blob.size - most)).arrayBuffer());
    return { name, size: blob.size, head, tail };
  }

  function drawReport(r) {
    const s = r.summary;
    $('#parquet-summary').innerHTML = `<span>${escapeHtml(r.file)}: ${count(r.num_rows, 'row')} in ${count(s.row_groups, 'row group')}` +
      `${r.created_by ? `, written by ${escapeHtml(r.created_by)}` : ''}.</span>` +
      `<span>${count(s.filters, 'filter')} of ${thousands(s.filter_bytes)} bytes in all: ${thousands(s.about_right)} about right, ` +
      `${thousands(s.oversized)} oversized, ${thousands(s.too_full)} too full.</span>`;
    const rows = [];
    for (const g of r.row_groups) for (const c of g.columns) rows.push(rowHtml(g, c));
    $('#parquet-table tbody').innerHTML = rows.join('');
    // The columns to probe: those of the first row group, in order.
    const columns = r.row_groups.length ? r.row_groups[0].columns : [];
    const select = $('#parquet-column');
    const before = select.value;
    select.innerHTML = columns.map((c) => `<option value="${escapeHtml(c.path)}">${escapeHtml(c.path)} (${c.physical_type})</option>`).join('');
    if (columns.some((c) => c.path === before)) select.value = before;
    probeForm.hidden = columns.length === 0;
    hint();
  }

  function hint() {
    const c = report && report.row_groups.length ? report.row_groups[0].columns.find((x) => x.path === $('#parquet-column').value) : null;
    $('#parquet-probe-hint').textContent = c ? typeHints[c.physical_type] || c.physical_type : '';
  }

  async function load(blob, name) {
    const gen = ++generation;
    clearErrors(form);
    clearErrors(probeForm);
    delete out.dataset.done;
    delete out.dataset.probed;
    $('#parquet-progress').textContent = `Reading ${name}…`;
    let read;
    try {
      read = await readEnds(blob, name);
    } catch (err) {
      if (gen !== generation) return;
      $('#parquet-progress').textContent = '';
      showError(form, 'parquet', { error: { field: 'file', message: `${name} could not be read (${err && err.message ? err.message : err})` } }, 'file');
      if (report) out.dataset.done = '';
      return;
    }
    if (gen !== generation) return;
    $('#parquet-progress').textContent = '';
    const r = parquet(read.size, read.head, read.tail, { name });
    if (r.error) {
      // The file before stays drawn, marked stale.
      out.classList.add('stale');
      showError(form, 'parquet', r, 'file');
      if (report) out.dataset.done = '';
      return;
    }
    file = read;
    report = r;
    out.classList.remove('stale');
    drawReport(r);
    $('#parquet-answers').innerHTML = '';
    out.dataset.file = name;
    out.dataset.done = '';
    if ($('#parquet-probe').value.trim() !== '') probe();
  }

  function probe() {
    clearErrors(probeForm);
    delete out.dataset.probed;
    const value = $('#parquet-probe').value;
    const column = $('#parquet-column').value;
    if (!file || value === '') {
      $('#parquet-answers').innerHTML = '';
      return;
    }
    const r = parquet(file.size, file.head, file.tail, { name: file.name, column, probe: value });
    if (r.error) {
      $('#parquet-answers').innerHTML = '';
      showError(probeForm, 'parquet', r, 'probe');
      return;
    }
    const answers = r.row_groups.map((g) => [g.row_group, g.columns.find((c) => c.path === column).probes[0]]);
    const ruledOut = answers.filter(([, a]) => a === 'no').length;
    const words = { no: 'no: ruled out, the row group is skipped', maybe: 'maybe: the row group is read', 'no filter': 'no filter: the row group is read' };
    $('#parquet-answers').innerHTML = answers.map(([g, a]) =>
      `<li data-row-group="${g}" data-answer="${a}">Row group ${g}: ${words[a]}</li>`).join('') +
      `<li class="muted" id="parquet-ruled-out">${escapeHtml(value)} is ruled out in ${thousands(ruledOut)} of ${count(answers.length, 'row group')}.</li>`;
    out.dataset.probed = `${column}=${value}`;
  }

  async function sample() {
    const res = await fetch(new URL('sample.parquet', document.baseURI));
    if (!res.ok) throw new Error(`the sample file did not load (HTTP ${res.status})`);
    await load(await res.blob(), 'sample.parquet');
  }

  // Set once a file of the reader's own is taken: the sample, arriving
  // later, does not replace it.
  let own = false;
  $('#parquet-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    if (!f) return;
    own = true;
    load(f, f.name);
  });
  const drop = $('#parquet-drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    own = true;
    load(f, f.name);
  });
  $('#parquet-sample').addEventListener('click', () => {
    sample().catch((err) => showError(form, 'parquet', { error: { field: 'file', message: err.message } }, 'file'));
  });
  $('#parquet-column').addEventListener('change', () => {
    hint();
    probe();
  });
  $('#parquet-probe').addEventListener('input', debounce(probe, 250));
  form.addEventListener('submit', (e) => e.preventDefault());
  probeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    probe();
  });
  // The sample's figures show until a file of the reader's own is dropped.
  // It is fetched when the section comes near the screen, not with the
  // page: nothing of it is needed before then.
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((x) => x.isIntersecting)) return;
    seen.disconnect();
    if (!own) sample().catch((err) => showError(form, 'parquet', { error: { field: 'file', message: err.message } }, 'file'));
  }, { rootMargin: '300px 0px' });
  seen.observe(root);
  return { report: () => report };
}
