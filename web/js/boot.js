// The page's first module: it loads the engine, draws section 1 and then
// runs app.js (main.js, every other section).
//
// Section 1's figures for the default inputs come with the page (drawn by
// the engine when the site was built: web/build.mjs), and the page's first
// script (js/start.js, in its head) starts this module only once they have
// been painted, together with the engine's files (window.bloomlabStart). It
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

// This module can run before the page has been read to its end (it is
// started after the first paint, which can come as soon as section 1 has
// been read): the engine loads meanwhile, and the sections are drawn once
// they are all in the page.
const read = document.readyState !== 'loading' ? Promise.resolve() :
  new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));

async function start() {
  try {
    await load();
  } catch (err) {
    await read;
    loadFailed(err);
    return;
  }
  await read;
  performance.mark('bloomlab:engine');  // for the browser tests' timings
  // Section 1 is drawn in a task of its own, after the one that made the
  // engine (its first calls also compile the engine's code they run).
  await new Promise((resolve) => setTimeout(resolve, 0));
  const drawn = atTop() ? mountSection('stage', stage) : null;
  // app.js is main.js, built as an entry of its own (web/build.mjs): the
  // code it shares with this module is in chunks that both import.
  const { setUpAll } = await import('./app.js');
  await setUpAll(drawn);
}

start();
