// The only door to the numbers: every figure the page shows comes from the
// C++ engine compiled to WebAssembly (bloomlab.mjs), called as run(op, request)
// with JSON in and JSON out. A report with an "error" object names the field
// that was refused, the value and what is allowed.
import { answer } from './answers.js';

let module = null;

// The page's first script starts both of the engine's files, with the page's
// modules, once the first figures are painted (window.bloomlabStart,
// js/start.js): the module of JavaScript around it, and its WebAssembly,
// compiled as it arrives. If both are there when load()
// is called, the engine is ready within the same task: no wait for the
// network or for another task. The browser delivers a finished compile in a
// task of its own, which can come after the one that calls load(): if the
// bytes are there but not the compiled module, they are compiled here at
// once (about 10 ms: V8 compiles each function when first called). Without
// any of it (a worker, a test), or if the early start failed, the module
// fetches and compiles its WebAssembly itself, and says why if it cannot.
export async function load() {
  const early = typeof window === 'object' ? window.bloomlabStart : undefined;
  const { default: createModule } = await (early && early.glue ? early.glue : import('./bloomlab.mjs'));
  let compiled = null;
  if (early && !early.module && early.bytes) {
    try {
      early.module = new WebAssembly.Module(early.bytes);
    } catch {
      early.module = null;
    }
  }
  try {
    compiled = early ? early.module || (early.compiled ? await early.compiled : null) : null;
  } catch {
    compiled = null;
  }
  const given = compiled ? {
    instantiateWasm(imports, receive) {
      let instance = null;
      try {
        instance = new WebAssembly.Instance(compiled, imports);
      } catch {
        // A browser that will not instantiate a module this size on the main
        // thread at once: the same, asynchronously.
        WebAssembly.instantiate(compiled, imports).then((i) => receive(i, compiled));
        return {};
      }
      receive(instance, compiled);
      return {};
    },
  } : {};
  module = await createModule(given);
}

export function run(op, request) {
  if (!module) throw new Error('the engine is not loaded');
  return JSON.parse(module.run(op, JSON.stringify(request)));
}

// One value as an input holds it, read by the engine's grammar (the parse
// operation: { as: 'count' | 'bits' | 'rate' | 'real', text, field, lo, hi }
// -> { as, value }, or the refusal): what js/echo.js says back beside the
// page's number inputs, and what their range checks test.
export function parse(request) {
  return run('parse', request);
}

// The report on a Parquet file's filters (the engine's parquet operation):
// the file's size, its first bytes and its last (Uint8Arrays, read by the
// page with the File API), and the request (name, column, probe).
export function parquet(size, head, tail, request) {
  if (!module) throw new Error('the engine is not loaded');
  return JSON.parse(module.parquet(size, head, tail, JSON.stringify(request)));
}

// The report of op for request: given's when given (a report the worker
// made while the section was set up, { request, report }) answers this very
// request without an error; else computed now. A view draws its first
// figures from the worker this way, and any later change on the page.
export function runUnlessGiven(given, op, request) {
  const fits = given && !given.report.error && JSON.stringify(given.request) === JSON.stringify(request);
  return fits ? given.report : run(op, request);
}

// The same call, in a worker: for long operations (or at once, from the
// report the site's build computed ahead for it: answers.js). Resolves with the report;
// if the worker fails (it could not load the engine, or it died), with a
// report whose error says so, and the next call starts a new worker.
let worker = null;
let nextId = 0;
const pending = new Map();

function workerFailed(why) {
  return { error: { field: null, value: '', message: `The lab's background engine stopped (${why}), so this could not be computed. Change an input to try again, or reload the page.` } };
}

function fail(why) {
  if (worker) worker.terminate();
  worker = null;
  for (const resolve of pending.values()) resolve(workerFailed(why));
  pending.clear();
}

// The limits of the page's inputs, as the engine enforces them (the
// "limits" operation): read from there, never copied into a view.
let limitsCache = null;
export function limits() {
  if (!limitsCache) limitsCache = run('limits', {});
  return limitsCache;
}

export async function runLater(op, request) {
  const known = await answer(op, request);
  if (known !== undefined) return known;
  if (!worker) {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (e) => {
      const resolve = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (resolve) resolve(e.data.report);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      fail(e.message || 'an error in the worker');
    };
    worker.onmessageerror = () => fail('a message it could not read');
  }
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ id, op, request });
  });
}
