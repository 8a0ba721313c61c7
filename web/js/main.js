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
import { fitTables } from './tables.js';

async function start() {
  fitTables();
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
  // Each section is set up on its own: one that fails says so in its own
  // place and the others still draw.
  const mountOne = (id, view, extra) => {
    const root = document.getElementById(id);
    try {
      return view.mount(root, extra);
    } catch (err) {
      const box = document.createElement('p');
      box.className = 'error section-error';
      box.setAttribute('role', 'alert');
      box.textContent = `This section could not be drawn (${err && err.message ? err.message : err}). ` +
        'The other sections still work; reloading without the link\'s settings may help.';
      root.querySelector('h2').after(box);
      return null;
    }
  };
  const st = mountOne('stage', stage);
  mountOne('measure', measure);
  mountOne('tune', tune);
  mountOne('schemes', schemes);
  mountOne('removal', removal);
  mountOne('cuckoo', cuckoo);
  mountOne('combine', combine);
  mountOne('growing', growing);
  mountOne('sizes', sizes);
  mountOne('questions', questions, { stage: st, measured: lastMeasure });
  document.body.classList.add('ready');
}

start();
