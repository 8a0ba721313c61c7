// Section 10: a filter in front of a real database. The work runs in
// db-worker.js (the engine and SQLite); this view sends the inputs, shows
// progress, and writes out what came back: the database's own counts, the
// times measured, and the engine's filter figures.
import * as state from '../state.js';
import { clearErrors, debounce, lines, showError } from '../form.js';
import { count, escapeHtml, list, percent, percentSig, plural, thousands } from '../format.js';

const defaults = { banned: '100,000', traffic: '100,000', share: '1%', p: '1%', unban: '1,000', seed: '1' };
const keys = { banned: 'db_n', traffic: 'db_t', share: 'db_s', p: 'db_p', unban: 'db_u', seed: 'db_seed' };
// Pasted keys stay in the link only while short.
const maxKeysInLink = 2000;

const steps = {
  draw: 'Drawing the keys and building the filter',
  insert: 'Putting the banned addresses in the database',
  alone: 'Asking the database about every request',
  filtered: 'Asking again, through the filter',
  unban: 'Sending the unban orders to the database',
  'unban-engine': 'Replaying the unban orders on the filter',
};

function ms(v) {
  return v >= 100 ? `${thousands(Math.round(v))} ms` : `${v.toPrecision(2)} ms`;
}

function us(totalMs, n) {
  const v = (totalMs * 1000) / n;
  return `${v >= 10 ? thousands(Math.round(v)) : v.toPrecision(2)} µs`;
}

export function mount(root) {
  const form = root.querySelector('#database-form');
  const $ = (sel) => root.querySelector(sel);
  for (const f of Object.keys(defaults)) $(`#database-${f}`).value = state.get(keys[f], defaults[f]);
  $('#database-keys').value = state.get('db_keys', '');

  let worker = null;
  let urls = [];
  let started = false;

  function save() {
    const values = {};
    for (const f of Object.keys(defaults)) {
      const v = $(`#database-${f}`).value;
      values[keys[f]] = v === defaults[f] ? null : v;
    }
    const text = $('#database-keys').value;
    values.db_keys = text.length <= maxKeysInLink ? text : null;
    state.set(values);
  }

  function request() {
    const r = {};
    for (const f of Object.keys(defaults)) r[f] = $(`#database-${f}`).value;
    const pasted = lines($('#database-keys').value);
    if (pasted.length) r.keys = pasted;
    return r;
  }

  function stop() {
    if (worker) worker.terminate();
    worker = null;
  }

  function start() {
    started = true;
    stop();
    clearErrors(form);
    $('#database-error').textContent = '';
    save();
    const req = request();
    $('#database-out').classList.add('stale');
    $('#database-progress').textContent = steps.draw + '…';
    const w = new Worker(new URL('./db-worker.js', import.meta.url), { type: 'module' });
    worker = w;
    w.onmessage = (e) => {
      if (worker !== w) return;
      const m = e.data;
      if (m.progress) {
        const { step, done, total } = m.progress;
        $('#database-progress').textContent = total > 1
          ? `${steps[step]}: ${thousands(done)} of ${thousands(total)} (${Math.floor((100 * done) / total)}%)`
          : steps[step] + '…';
        return;
      }
      stop();
      $('#database-progress').textContent = '';
      if (m.error) {
        // Beside its input when the form has one; above the results if not.
        const field = m.error.field;
        if (field && $(`#database-${field}-error`)) showError(form, 'database', { error: m.error }, field);
        else $('#database-error').textContent = m.error.message;
        return;
      }
      $('#database-out').classList.remove('stale');
      draw(m.result);
    };
    w.onerror = (e) => {
      e.preventDefault();
      if (worker !== w) return;
      stop();
      $('#database-progress').textContent = '';
      $('#database-error').textContent = `The database worker could not start (${e.message || 'an error in the worker'}). Reload the page to try again.`;
    };
    w.postMessage({ request: req });
  }

  function draw(r) {
    const e = r.report;
    const clean = r.requests - r.alone.found;
    const fp = r.filtered.queries - r.filtered.found;
    const out = $('#database-out');
    Object.assign(out.dataset, {
      n: e.n, m: e.m, k: e.k, p: e.p, requests: r.requests, rows: r.rows,
      aloneQueries: r.alone.queries, aloneFound: r.alone.found,
      filteredQueries: r.filtered.queries, filteredFound: r.filtered.found, falsePositives: fp,
      fnWith: r.unban.with_confirmation.false_negatives, fnWithout: r.unban.without_confirmation.false_negatives,
      aloneMs: r.alone.ms.toFixed(1), filteredMs: r.filtered.ms.toFixed(1),
    });

    $('#database-summary').innerHTML =
      `SQLite ${escapeHtml(r.sqlite)} holds ${count(r.rows, 'banned address', 'banned addresses')} ` +
      `(inserted in ${ms(r.insertMs)}). The engine's counting filter for them has ${thousands(e.m)} counters of ` +
      `${count(e.width, 'bit')} and k = ${e.k}, sized for ${percentSig(e.p)}; the formula gives ${percentSig(e.fpr_approx)}.`;

    const row = (name, x, cleanQueries) =>
      `<tr><th scope="row">${name}</th><td>${thousands(x.queries)}</td><td>${thousands(x.found)}</td>` +
      `<td>${thousands(cleanQueries)}</td><td>${ms(x.ms)}</td><td>${us(x.ms, r.requests)}</td></tr>`;
    $('#database-table tbody').innerHTML =
      row('SQLite alone', r.alone, r.alone.queries - r.alone.found) +
      row('Filter, then SQLite', r.filtered, fp);

    const spared = r.alone.queries - r.filtered.queries;
    const perQuery = us(r.alone.ms, r.alone.queries);
    let pays = `The filter spared the database ${thousands(spared)} of ${count(r.alone.queries, 'query', 'queries')} ` +
      `(${percent(spared / r.alone.queries, 1)}), and the database found the same ${count(r.alone.found, 'banned request')} either way. `;
    pays += clean
      ? `${thousands(fp)} of ${count(clean, 'clean request')} still reached it: the filter's false positives, ` +
        `${percentSig(fp / clean)} of them, beside the formula's ${percentSig(e.fpr_approx)}. `
      : 'Every request came from a banned address. ';
    const faster = r.filtered.ms < r.alone.ms;
    pays += faster
      ? `In time, ${ms(r.alone.ms)} became ${ms(r.filtered.ms)}, ${us(r.alone.ms - r.filtered.ms, r.requests)} saved a request. `
      : `In time the filter did not pay here: ${ms(r.alone.ms)} without it, ${ms(r.filtered.ms)} with it, because nearly every request took both the filter's check and a query. `;
    pays += `That is a small sum, because this database is in memory, in the same tab: it answered a query in ${perQuery} on average. ` +
      'A filter saves most where a query costs more, such as a trip to a database server, and when most requests are clean. ' +
      'Raise the share from banned and it saves less: the filter answers maybe to every banned request.';
    $('#database-pays').textContent = pays;

    const u = r.unban;
    const uRow = (name, s) =>
      `<tr><th scope="row">${name}</th><td>${thousands(s.decremented)}</td><td>${thousands(s.refused)}</td>` +
      `<td>${thousands(s.false_negatives)}</td></tr>`;
    $('#database-unban-table tbody').innerHTML =
      uRow('Waits for the database', u.with_confirmation) + uRow('Does not wait', u.without_confirmation);
    const lost = u.without_confirmation;
    const box = $('#database-lost');
    let text = `${count(u.orders, 'unban order')}: the database deleted ${thousands(r.confirmed)} ` +
      `${plural(r.confirmed, 'row')} and holds ${count(r.rowsAfter, 'banned address', 'banned addresses')} now. `;
    if (u.orders === 0) {
      text = 'No unban orders: set some to see what removal does to the filter.';
    } else if (lost.false_negatives) {
      const shown = lost.lost.slice(0, 5).map(escapeHtml);
      text += `${count(u.unconfirmed_maybe, 'order')} named an address the database did not hold but the filter answered maybe to. ` +
        `The gate that did not wait decremented for ${plural(u.unconfirmed_maybe, 'it', 'them')}. It now answers no to ` +
        `<strong>${count(lost.false_negatives, 'address', 'addresses')} the database still bans</strong>, such as ${list(shown)}. ` +
        `Asked just now, the database still holds ${thousands(r.lostHeld)} of the ${thousands(lost.lost.length)} the engine listed. ` +
        'The gate that waited lost none.';
    } else {
      text += u.unconfirmed_maybe
        ? `${count(u.unconfirmed_maybe, 'order')} named an address the filter mistook for banned. Yet no banned address lost a counter it needed this time. Try more orders or a looser rate.`
        : 'No order named an address the filter mistook for banned, so both gates kept every banned address. Try more orders or a looser rate.';
    }
    box.innerHTML = text;
    box.classList.toggle('bad', lost.false_negatives > 0);

    for (const url of urls) URL.revokeObjectURL(url);
    urls = [URL.createObjectURL(r.files.banned), URL.createObjectURL(r.files.traffic)];
    $('#database-files').innerHTML =
      `The keys, one a line: <a id="database-banned-file" href="${urls[0]}" download="banned.txt">banned addresses</a> and ` +
      `<a id="database-traffic-file" href="${urls[1]}" download="requests.txt">requests</a>. ` +
      `To check them: <code>bloomlab build --kind counting --n ${e.n} --p ${e.p} banned.txt -o banned.filter</code>. ` +
      `Then <code>bloomlab query banned.filter - &lt; requests.txt</code> answers maybe to the same ${thousands(r.filtered.queries)}.`;
  }

  const later = debounce(start, 500);
  form.addEventListener('input', later);
  form.addEventListener('submit', (e) => e.preventDefault());
  $('#database-run').addEventListener('click', start);

  // The first run waits until the section is a screen away: it keeps the
  // database busy for a few seconds (100,000 inserts and twice as many
  // lookups), mostly done by the time a reader scrolls to it.
  if ('IntersectionObserver' in window) {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((x) => x.isIntersecting)) return;
      seen.disconnect();
      if (!started) start();
    }, { rootMargin: '100% 0px' });
    seen.observe(root);
  } else {
    start();
  }
}
