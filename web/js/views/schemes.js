// Section 5: how positions are derived. Seeded trials of every scheme at a
// power-of-two m and a prime m; the small filter where the two-hash shortcut
// costs; and the step rule, walked position by position.
import { run, runLater } from '../engine.js';
import * as state from '../state.js';
import { checkKind, clearErrors, debounce, isPowerOfTwo, isPrime, nearestPowersOfTwo, nearestPrimes, showError } from '../form.js';
import { count, escapeHtml, percentSig, thousands } from '../format.js';

import { comparisonJobs, fields, smallJobs } from './schemes-jobs.js';

function interval(r) {
  return `${percentSig(r.fpr_mean)}<br><span class="muted">${percentSig(r.ci_low)} to ${percentSig(r.ci_high)}</span>`;
}

function exactScheme(r) {
  return r.fpr_exact_scheme === null ? '<span class="muted">not computed</span>' : percentSig(r.fpr_exact_scheme);
}

// Runs the trials one at a time in the engine's worker, so the page stays
// responsive while they take their seconds (those of the default inputs
// were answered by the site's build: answers.js).
// `progress` says which trial is running ("Trial 3 of 6 running: ...") and
// is emptied when all are done; onRow returns false to stop (a newer run
// took over, or an error, which the caller shows).
async function runAll(jobs, onRow, progress) {
  for (const [i, job] of jobs.entries()) {
    progress.textContent = `Trial ${i + 1} of ${jobs.length} running: ${job.label}, ${thousands(job.request.m)} bits, ` +
      `${thousands(job.request.filters)} filters…`;
    const r = await runLater('trials', job.request);
    if (!onRow(job, r)) return;
  }
  progress.textContent = '';
}

export function mount(root) {
  const form = root.querySelector('#schemes-form');
  const $ = (sel) => root.querySelector(sel);
  for (const [f, v] of Object.entries(fields)) $(`#schemes-${f}`).value = state.get(`sc_${f}`, v);
  let generation = 0;

  function compare() {
    clearErrors(form);
    const v = Object.fromEntries(Object.keys(fields).map((f) => [f, $(`#schemes-${f}`).value]));
    state.set(Object.fromEntries(Object.entries(v).map(([f, x]) => [`sc_${f}`, x === fields[f] ? null : x])));
    const gen = ++generation;
    const tbody = $('#schemes-table tbody');
    tbody.innerHTML = '';
    // Each column's m is what its label says; the engine takes any m.
    const okPow = checkKind(form, 'schemes', 'pow', 'a power of two', isPowerOfTwo, nearestPowersOfTwo);
    const okPrime = checkKind(form, 'schemes', 'prime', 'prime', isPrime, nearestPrimes);
    if (!okPow || !okPrime) {
      $('#schemes-progress').textContent = '';
      return;
    }
    $('#schemes-table').setAttribute('aria-busy', 'true');
    const jobs = comparisonJobs(v);
    runAll(jobs, (job, r) => {
      if (gen !== generation) return false;
      if (r.error) {
        const field = r.error.field === 'm' ? job.field : r.error.field;
        $('#schemes-table').removeAttribute('aria-busy');
        // A refused input is shown beside it; a failed worker, where the progress was.
        $('#schemes-progress').textContent = field ? '' : r.error.message;
        if (field) showError(form, 'schemes', { error: { ...r.error, field } }, 'n');
        return false;
      }
      tbody.insertAdjacentHTML('beforeend', `<tr><td class="text">${job.label}</td><td>${thousands(r.m)}</td><td>${interval(r)}</td>` +
        `<td>${exactScheme(r)}</td><td>${percentSig(r.fpr_exact)}</td></tr>`);
      if (tbody.rows.length === jobs.length) $('#schemes-table').removeAttribute('aria-busy');
      return true;
    }, $('#schemes-progress'));
  }

  // Seed 001's case (smallJobs): computed once, when the section comes into view.
  let smallDone = false;
  function small() {
    if (smallDone) return;
    smallDone = true;
    const tbody = $('#schemes-small-table tbody');
    const jobs = smallJobs();
    const plain = {};
    runAll(jobs, (job, r) => {
      if (r.error) {
        $('#schemes-small-progress').textContent = r.error.message;
        return false;
      }
      tbody.insertAdjacentHTML('beforeend', `<tr><td class="text">${thousands(job.m)} bits, ${job.n} keys</td><td class="text">${job.label}</td>` +
        `<td>${interval(r)}</td><td>${exactScheme(r)}</td><td>${percentSig(r.fpr_exact)}</td></tr>`);
      if (job.request.scheme === 'double') {
        // The sentence states the engine's four rates; which gap is wider is
        // read from them, not assumed.
        plain[job.m] = r;
        const a = plain[101], b = plain[2003];
        if (a) {
          let text = `With 101 bits, 10 keys and k = 7, independent positions would give ` +
            `${percentSig(a.fpr_exact)}; plain double hashing's own exact rate is ${percentSig(a.fpr_exact_scheme)}.`;
          if (b) {
            const gap = (x) => Math.abs(x.fpr_exact_scheme - x.fpr_exact) / x.fpr_exact;
            text += ` At 2,003 bits and 200 keys, the same ten bits a key, they are ${percentSig(b.fpr_exact)} and ` +
              `${percentSig(b.fpr_exact_scheme)}: the gap ${gap(b) < gap(a) ? 'narrows' : 'does not narrow'} as m grows.`;
          }
          $('#schemes-small').textContent = text;
        }
      }
      return true;
    }, $('#schemes-small-progress'));
  }

  function walk() {
    const wf = root.querySelector('#walk-form');
    clearErrors(wf);
    const v = Object.fromEntries(['m', 'k', 'h1', 'step'].map((f) => [f, root.querySelector(`#walk-${f}`).value]));
    state.set({ wk_m: v.m === '30' ? null : v.m, wk_k: v.k === '8' ? null : v.k, wk_h1: v.h1 === '4' ? null : v.h1, wk_step: v.step === '10' ? null : v.step });
    const r = run('walk', v);
    if (showError(wf, 'walk', r, 'm')) return;
    const strip = (positions) => {
      const set = new Set(positions);
      let cells = '';
      for (let i = 0; i < Math.min(r.m, 64); i++) cells += `<span class="cell${set.has(i) ? ' on' : ''}" title="bit ${i}"></span>`;
      return `<div class="strip" aria-hidden="true">${cells}</div>`;
    };
    const cycle = r.gcd === r.m ? 'a step of 0 mod m never moves' :
      `gcd(${thousands(r.step)}, ${thousands(r.m)}) = ${thousands(r.gcd)}, so it cycles through ${count(r.cycle, 'bit')}`;
    root.querySelector('#walk-out').innerHTML =
      `<p><strong>Plain</strong>, (h1 + i·step) mod m: ${r.plain.join(', ')}. ` +
      `${count(r.plain_distinct, 'distinct bit')} of ${r.k}: ${escapeHtml(cycle)}.</p>${strip(r.plain)}` +
      `<p><strong>Enhanced</strong>, (h1 + i·step + (i³ − i)/6) mod m: ${r.enhanced.join(', ')}. ` +
      `${count(r.enhanced_distinct, 'distinct bit')} of ${r.k}.</p>${strip(r.enhanced)}`;
  }

  for (const [f, d] of [['m', '30'], ['k', '8'], ['h1', '4'], ['step', '10']]) root.querySelector(`#walk-${f}`).value = state.get(`wk_${f}`, d);
  root.querySelector('#walk-form').addEventListener('input', debounce(walk, 100));
  root.querySelector('#walk-form').addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('input', debounce(compare, 300));
  form.addEventListener('submit', (e) => e.preventDefault());
  walk();

  // The trials take a moment; run them when the section is near the screen.
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      seen.disconnect();
      compare();
      small();
    }
  }, { rootMargin: '400px' });
  seen.observe(root);
}
