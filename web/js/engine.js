// The only door to the numbers: every figure the page shows comes from the
// C++ engine compiled to WebAssembly (bloomlab.mjs), called as run(op, request)
// with JSON in and JSON out. A report with an "error" object names the field
// that was refused, the value and what is allowed.
let module = null;

export async function load() {
  const { default: createModule } = await import('./bloomlab.mjs');
  module = await createModule();
}

export function run(op, request) {
  if (!module) throw new Error('the engine is not loaded');
  return JSON.parse(module.run(op, JSON.stringify(request)));
}

// The same call, in a worker: for long operations. Resolves with the report.
let worker = null;
let nextId = 0;
const pending = new Map();

export function runLater(op, request) {
  if (!worker) {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (e) => {
      pending.get(e.data.id)(e.data.report);
      pending.delete(e.data.id);
    };
  }
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ id, op, request });
  });
}
