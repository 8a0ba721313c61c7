// The page's first script, and the first figures as early as they can be.
// It is a small module, run as soon as the page has been read (before the
// browser's own work at the end of reading it, which on this page takes
// about a hundred milliseconds). The engine's files were started by the
// page's head, so the engine is usually ready at once: section 1 is then
// drawn in the same task. Only then is app.js (main.js, every other
// section) run; the page's head has fetched it meanwhile.
//
// Section 1's figures for the default inputs come with the page (drawn by
// the engine when the site was built: web/build.mjs). Then this module first
// lets the browser paint them, a frame, and only then starts the engine and
// has section 1's view draw the same over them, with its controls live. A
// link that asks for another filter (st_ keys) finds them hidden, and has
// them replaced at once.
//
// Section 1 is drawn here only when the page opens at its top: a link to
// another section has main.js set that section up first.
import { load } from './engine.js';
import * as stage from './views/stage.js';
import { mountSection } from './sections.js';

const atTop = () => !location.hash || location.hash === '#stage' || location.hash === '#main';

function loadFailed(err) {
  const box = document.getElementById('load-error');
  box.hidden = false;
  box.textContent = 'The lab\'s engine could not be loaded, so nothing can be computed here. ' +
    'It runs as WebAssembly: use a current browser with WebAssembly enabled, then reload. ' +
    `(${err && err.message ? err.message : err})`;
  document.body.classList.add('no-engine');
}

// After the next frame is painted; at once in a hidden page (which paints
// no frames) or when there is nothing drawn to show.
function painted() {
  const shown = document.getElementById('stage')?.hasAttribute('data-prerendered') &&
    !document.documentElement.classList.contains('stage-stale');
  if (!shown || document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function start() {
  await painted();
  try {
    await load();
  } catch (err) {
    loadFailed(err);
    return;
  }
  performance.mark('bloomlab:engine');  // for the browser tests' timings
  const drawn = atTop() ? { result: mountSection('stage', stage) } : null;
  // app.js is main.js, built as an entry of its own (web/build.mjs): the
  // code it shares with this module is in chunks that both import.
  const { setUpAll } = await import('./app.js');
  await setUpAll(drawn);
}

start();
