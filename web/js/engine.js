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
