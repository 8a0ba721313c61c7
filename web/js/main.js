// Loads the engine, then mounts each section. Data flows one way:
// inputs -> engine call -> report -> view.
import { load } from './engine.js';
import * as stage from './views/stage.js';
import * as measure from './views/measure.js';
import * as tune from './views/tune.js';
import * as schemes from './views/schemes.js';
import * as removal from './views/removal.js';
import * as cuckoo from './views/cuckoo.js';
import * as combine from './views/combine.js';
import * as growing from './views/growing.js';
import * as sizes from './views/sizes.js';
import * as questions from './views/questions.js';

async function start() {
  try {
    await load();
  } catch (err) {
    const box = document.getElementById('load-error');
    box.hidden = false;
    box.textContent = 'The lab\'s engine could not be loaded, so no figures can be shown. ' +
      'It runs as WebAssembly: use a current browser with WebAssembly enabled, then reload. ' +
      `(${err && err.message ? err.message : err})`;
    document.body.classList.add('no-engine');
    return;
  }
  let lastMeasure = null;
  document.addEventListener('measured', (e) => { lastMeasure = e.detail; });
  const st = stage.mount(document.getElementById('stage'));
  measure.mount(document.getElementById('measure'));
  tune.mount(document.getElementById('tune'));
  schemes.mount(document.getElementById('schemes'));
  removal.mount(document.getElementById('removal'));
  cuckoo.mount(document.getElementById('cuckoo'));
  combine.mount(document.getElementById('combine'));
  growing.mount(document.getElementById('growing'));
  sizes.mount(document.getElementById('sizes'));
  questions.mount(document.getElementById('questions'), { stage: st, measured: lastMeasure });
  document.body.classList.add('ready');
}

start();
