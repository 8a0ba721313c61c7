// Every section but the first figures: boot.js loads the engine and draws
// section 1 (when the page opens at its top), then runs this module's
// setUpAll. Data flows one way: inputs -> engine call -> report -> view.
//
// The sections on the screen (or those the link points at) are set up
// first; the rest as they come into view, or in page order, each step of
// each in a task of its own. body.ready is set when every section is set up.
import { done, mountSection, nextPart } from './sections.js';
import * as stage from './views/stage.js';
import * as measure from './views/measure.js';
import * as tune from './views/tune.js';
import * as schemes from './views/schemes.js';
import * as removal from './views/removal.js';
import * as cuckoo from './views/cuckoo.js';
import * as combine from './views/combine.js';
import * as growing from './views/growing.js';
import * as sizes from './views/sizes.js';
import * as database from './views/database.js';
import * as attack from './views/attack.js';
import * as questions from './views/questions.js';
import * as which from './views/which.js';
import * as parquet from './views/parquet.js';
import { checkTables, fitTables } from './tables.js';

// drawn: section 1's set-up (mountSection's section) when boot.js has
// mounted it; else null.
export async function setUpAll(drawn) {
  fitTables();
  let lastMeasure = null;
  document.addEventListener('measured', (e) => { lastMeasure = e.detail; });
  // Each section is set up on its own: one that fails says so in its own
  // place and the others still draw. mountOne lists a section to set up,
  // with the prefixes of its keys in the URL, and returns a handle on what
  // its mount returns (report(), or null before then); extra given as a
  // function is read when the section is set up, after every section listed
  // before it has been set up whole.
  const queue = [];
  const mountOne = (id, view, keys, extra) => {
    const entry = { id, view, keys, extra, section: null };
    queue.push(entry);
    return { report: () => (entry.section && entry.section.result && entry.section.result.report ? entry.section.result.report() : null) };
  };
  const st = mountOne('stage', stage, ['st_']);
  if (drawn) {
    queue[0].section = drawn;
    while (nextPart(drawn));
    done(drawn);
  }
  mountOne('measure', measure, ['ms_']);
  mountOne('tune', tune, ['tu_']);
  // The questions come after the basics, on the page and here:
  // they quote section 1's filter and section 2's measurement.
  mountOne('removal', removal, ['rm_', 'ov_']);
  mountOne('questions', questions, [], () => ({ stage: st, measured: lastMeasure }));
  mountOne('schemes', schemes, ['sc_', 'wk_']);
  mountOne('cuckoo', cuckoo, ['ck_']);
  mountOne('combine', combine, ['cb_']);
  mountOne('growing', growing, ['gr_']);
  mountOne('sizes', sizes, ['bp_', 'sy_', 'pg_', 'pv_']);
  mountOne('database', database, ['db_']);
  mountOne('attack', attack, ['at_']);
  mountOne('which', which, ['wh_', 'dr_']);
  mountOne('parquet', parquet, []);
  await setUpInTurn(queue);
  // A section of prose alone (the opening, "What a filter is for") has
  // nothing to set up: it is marked set up with the page, after the others.
  const viewed = new Set(queue.map((e) => e.id));
  for (const el of document.querySelectorAll('main section[id]')) if (!viewed.has(el.id)) el.dataset.mounted = '';
  document.body.classList.add('ready');
}

// A new task, after anything the browser has waiting (input, a frame):
// the scheduler's when there is one, else a message to this page (a timer
// chained to a timer waits at least 4 ms).
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()();
function nextTask() {
  if (globalThis.scheduler && typeof scheduler.postTask === 'function') return scheduler.postTask(() => {}, { priority: 'user-visible' });
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

// Sets the sections up one at a time, each step of each (its mount, then
// each part it hands over: sections.js) in a task of its own, so no one
// long task holds the page. First those the link asks for (#id, or keys of
// theirs in the URL), each set up whole before the next, then those on the
// screen, then the rest in page order; a section that comes near the screen
// meanwhile goes next.
async function setUpInTurn(queue) {
  const near = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  };
  const query = [...new URLSearchParams(location.search).keys()];
  const linked = (e) => location.hash === `#${e.id}` || e.keys.some((p) => query.some((k) => k.startsWith(p)));
  const first = [...queue.filter(linked), ...queue.filter((e) => !linked(e) && near(document.getElementById(e.id)))];
  const order = [...first, ...queue.filter((e) => !first.includes(e))];
  const byId = new Map(queue.map((e) => [e.id, e]));
  const seen = new IntersectionObserver((entries) => {
    for (const x of entries) {
      if (!x.isIntersecting) continue;
      seen.unobserve(x.target);
      const e = byId.get(x.target.id);
      const at = order.indexOf(e);
      if (at > 0) order.unshift(...order.splice(at, 1));
    }
  }, { rootMargin: '300px 0px' });
  for (const e of queue) if (!e.section) seen.observe(document.getElementById(e.id));
  const setUp = async (e) => {
    if (e.section) return;
    // A section that quotes those before it has them set up whole first,
    // in this task.
    if (typeof e.extra === 'function') {
      for (const before of queue.slice(0, queue.indexOf(e))) {
        if (!before.section) before.section = mountSection(before.id, before.view);
        while (nextPart(before.section));
        done(before.section);
      }
    }
    e.section = mountSection(e.id, e.view, typeof e.extra === 'function' ? e.extra() : e.extra);
    while (e.section.parts.length) {
      await nextTask();
      nextPart(e.section);
    }
    done(e.section);
    await nextTask();
    checkTables(e.section.root);
  };
  let marked = false;
  const mark = () => {
    if (marked || order.some((x) => first.includes(x) && !x.section)) return;
    performance.mark('bloomlab:first');
    marked = true;
  };
  mark();
  while (order.length) {
    const e = order.shift();
    if (!e.section) {
      await setUp(e);
      // A section the link names is set up whole (its figures from the
      // worker too) before any other.
      if (linked(e)) await done(e.section);
      await nextTask();
    }
    mark();
  }
  seen.disconnect();
  await Promise.all(queue.map((e) => done(e.section)));
  for (const e of queue) checkTables(e.section.root);
}
