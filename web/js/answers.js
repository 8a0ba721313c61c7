// Reports the site's build computed ahead, with the same engine (the same
// bloomlab.mjs and .wasm, under node), for requests a section makes with its
// default inputs and that take the engine seconds (section 4's trials).
// web/build.mjs writes them into the page as JSON in
// <script type="application/json" id="engine-answers">, keyed by
// answerKey(op, request); engine.js's runLater() answers such a request
// from there at once, and computes any other as before.
export function answerKey(op, request) {
  return `${op} ${JSON.stringify(request)}`;
}

let table = null;

// The report (a fresh object each call) or undefined.
export function answer(op, request) {
  if (table === null) {
    const el = typeof document === 'object' ? document.getElementById('engine-answers') : null;
    table = el ? JSON.parse(el.textContent) : {};
  }
  const text = table[answerKey(op, request)];
  return text === undefined ? undefined : JSON.parse(text);
}
