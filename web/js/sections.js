// Sets up one section: its view's mount(root, extra), once. A section that
// fails says so in its own place, so that the others still draw.
//
// A set-up can come in parts, each run in a task of its own (main.js runs
// them), so that no one task holds the page for long: the view's mount, or
// one of its parts, hands the next part over with setUpLater(fn). A part may
// return a promise (work done in the worker); the section is set up once
// every part has run and every such promise has settled. Then it is marked
// data-mounted, and done() resolves. Each step is timed (a performance
// measure named bloomlab:set-up:ID, which the browser tests report).
import { watch } from './echo.js';

let current = null;  // the section whose mount or part is running

export function setUpLater(fn) {
  if (!current) throw new Error('setUpLater() hands over part of a section\'s set-up, and no section is being set up');
  current.parts.push(fn);
}

function failed(section, err) {
  if (section.failed) return;
  section.failed = true;
  const box = document.createElement('p');
  box.className = 'error section-error';
  box.setAttribute('role', 'alert');
  box.textContent = `This section could not be drawn (${err && err.message ? err.message : err}). ` +
    'The other sections still work; reloading without the link\'s settings may help.';
  section.root.querySelector('h2').after(box);
}

// Runs one step of a section's set-up (its mount or a part) as the current
// section, catching what it throws or rejects.
function step(section, fn) {
  if (section.failed) return;
  const started = performance.now();
  current = section;
  try {
    const out = fn();
    if (out && typeof out.then === 'function') section.waiting.push(Promise.resolve(out).catch((err) => failed(section, err)));
  } catch (err) {
    failed(section, err);
  } finally {
    current = null;
    performance.measure(`bloomlab:set-up:${section.id}`, { start: started });
  }
}

// Mounts the section now and returns it: { id, root, result (what mount
// returned, or null when it failed), parts (those left to run) }.
export function mountSection(id, view, extra) {
  const section = { id, root: document.getElementById(id), result: null, parts: [], waiting: [], failed: false, finished: null };
  step(section, () => {
    section.result = view.mount(section.root, extra);
    watch(section.root);  // each number input says what the engine reads in it (echo.js)
  });
  return section;
}

// Runs the section's next part, if any; says whether more are left.
export function nextPart(section) {
  const fn = section.parts.shift();
  if (fn) step(section, fn);
  return section.parts.length > 0;
}

// Resolves when the section is set up (every part run and settled), and
// marks it data-mounted then.
export function done(section) {
  if (!section.finished) {
    section.finished = (async () => {
      for (let n = 0; n < section.waiting.length; n++) await section.waiting[n];
      section.root.dataset.mounted = '';
    })();
  }
  return section.finished;
}
