// Reports the site's build computed ahead, with the same engine (the same
// bloomlab.mjs and .wasm, under node), for requests a section makes with its
// default inputs and that take the engine seconds (section 4's trials).
// web/build.mjs writes them to answers.json beside the page, keyed by
// answerKey(op, request); engine.js's runLater() answers such a request
// from there, fetched once when first needed (so not in the page's first
// load), and computes any other, or every one if the file cannot be read.
export function answerKey(op, request) {
  return `${op} ${JSON.stringify(request)}`;
}

// The operations answered ahead: a request for any other is not looked up,
// so the sections that run early do not fetch the file.
export const answeredOps = new Set(['trials']);

let table = null;

// Resolves with the report (a fresh object each call) or undefined.
export async function answer(op, request) {
  if (!answeredOps.has(op)) return undefined;
  if (table === null) {
    table = (async () => {
      try {
        const r = await fetch(new URL('./answers.json', import.meta.url));
        return r.ok ? await r.json() : {};
      } catch {
        return {};
      }
    })();
  }
  const text = (await table)[answerKey(op, request)];
  return text === undefined ? undefined : JSON.parse(text);
}
