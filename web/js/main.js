// Every section but the first figures: boot.js loads the engine and draws
// section 1 (when the page opens at its top), then runs this module's
// setUpAll. Data flows one way: inputs -> engine call -> report -> view.
//
// The sections on the screen (or the one the link points at) are set up
// first; the rest are set up as they come into view, or one at a time, each
// in its own task, once the first figures are drawn. body.ready is set when
// every section is set up.
import { mountSection } from './sections.js';
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
import { fitTables } from './tables.js';

// drawn: section 1's mount, { result }, when boot.js has drawn it; else null.
export async function setUpAll(drawn) {
  fitTables();
  let lastMeasure = null;
  document.addEventListener('measured', (e) => { lastMeasure = e.detail; });
  // Each section is set up on its own: one that fails says so in its own
  // place and the others still draw. mountOne lists a section to set up and
  // returns a handle on what its mount returns (report(), or null before
  // then); extra given as a function is read when the section is set up,
  // after every section listed before it.
  const queue = [];
  const mountOne = (id, view, extra) => {
    const entry = { id, view, extra, done: false, result: null };
    queue.push(entry);
    return { report: () => (entry.result && entry.result.report ? entry.result.report() : null) };
  };
  const setUp = (entry) => {
    if (entry.done) return;
    entry.done = true;
    if (typeof entry.extra === 'function') {
      for (const e of queue) {
        if (e === entry) break;
        setUp(e);
      }
    }
    entry.result = mountSection(entry.id, entry.view, typeof entry.extra === 'function' ? entry.extra() : entry.extra);
  };
  const st = mountOne('stage', stage);
  if (drawn) Object.assign(queue[0], { done: true, result: drawn.result });
  mountOne('measure', measure);
  mountOne('tune', tune);
  // The questions come after the first three sections, on the page and here:
  // they quote section 1's filter and section 2's measurement.
  mountOne('questions', questions, () => ({ stage: st, measured: lastMeasure }));
  mountOne('schemes', schemes);
  mountOne('removal', removal);
  mountOne('cuckoo', cuckoo);
  mountOne('combine', combine);
  mountOne('growing', growing);
  mountOne('sizes', sizes);
  mountOne('database', database);
  mountOne('attack', attack);
  mountOne('which', which);
  await setUpInTurn(queue, setUp);
  document.body.classList.add('ready');
}

// Sets up the sections on the screen now; then, after the first figures
// are painted, the rest, each as it comes near the screen or in a task of
// its own, so no one long task holds the page.
async function setUpInTurn(queue, setUp) {
  const near = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  };
  for (const e of queue) if (near(document.getElementById(e.id))) setUp(e);
  performance.mark('bloomlab:first');
  const byId = new Map(queue.map((e) => [e.id, e]));
  const seen = new IntersectionObserver((entries) => {
    for (const x of entries) {
      if (!x.isIntersecting) continue;
      seen.unobserve(x.target);
      setUp(byId.get(x.target.id));
    }
  }, { rootMargin: '300px 0px' });
  for (const e of queue) if (!e.done) seen.observe(document.getElementById(e.id));
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  for (const e of queue) {
    if (e.done) continue;
    await new Promise((resolve) => setTimeout(resolve, 0));
    setUp(e);
  }
  seen.disconnect();
}

