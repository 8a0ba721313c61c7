// Builds the static site: the page, its bundle, styles and the sample list.
// Usage: node web/build.mjs OUTDIR  (the engine's bloomlab.mjs and .wasm are
// built into the same folder by `make wasm`).
//
// The page's script is two entries that share their code (esbuild's
// splitting): boot.js, small, which draws section 1 with the engine, and
// app.js (main.js), every other section, which boot.js runs after that.
//
// Nothing holds the page's first paint but the page itself. Section 1's
// first figures are in index.html: the build runs the engine (the same
// bloomlab.mjs and .wasm, under node) on section 1's default inputs and
// writes what section 1's view would draw for its report
// (views/stage-markup.js) into the page, which the view draws the same over
// once it runs. The styles are written into the page's head too (no
// stylesheet to wait for), and so is js/start.js, the page's first script,
// with the list of the page's modules: it fetches them and the engine only
// after the first paint.
import { build, transform } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { brotliCompress, constants as zlib } from 'node:zlib';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as stage from './js/views/stage-markup.js';
import * as schemesJobs from './js/views/schemes-jobs.js';
import { answerKey, answeredOps } from './js/answers.js';
import { escapeHtml } from './js/format.js';

const here = dirname(fileURLToPath(import.meta.url));
const compressBrotli = promisify(brotliCompress);
const run = promisify(execFile);
const out = process.argv[2];
if (!out) {
  console.error('usage: node web/build.mjs OUTDIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const common = {
  bundle: true,
  format: 'esm',
  minify: true,
  sourcemap: true,
  target: ['es2020'],
  outdir: out,
  external: ['./bloomlab.mjs'],
  loader: { '.txt': 'text' },
  logLevel: 'warning',
};
const page = await build({
  ...common,
  entryPoints: { app: join(here, 'js/main.js'), boot: join(here, 'js/boot.js') },
  external: [...common.external, './app.js'],
  splitting: true,
  chunkNames: 'chunk-[hash]',
  metafile: true,
});
// Chunks an earlier build wrote (their names hash their contents) are
// removed, so the site holds only what the page loads.
const written = new Set(Object.keys(page.metafile.outputs).map((o) => basename(o)));
for (const name of readdirSync(out)) {
  if (/^chunk-.*\.js(\.map)?$/.test(name) && !written.has(name)) rmSync(join(out, name));
}
// The workers are separate programs, each bundled whole.
await build({ ...common, entryPoints: { worker: join(here, 'js/worker.js'), 'db-worker': join(here, 'js/db-worker.js') } });

// The page's modules in the order start.js starts them: boot.js, the chunks
// it imports (shared with app.js), then app.js.
const files = ['boot.js'];
for (const entry of ['js/boot.js', 'js/main.js']) {
  const found = Object.entries(page.metafile.outputs).find(([, o]) => o.entryPoint && o.entryPoint.endsWith(entry));
  if (!found) throw new Error(`esbuild wrote nothing for ${entry}`);
  for (const i of found[1].imports) if (i.kind === 'import-statement' && !i.external && !files.includes(basename(i.path))) files.push(basename(i.path));
}
files.push('app.js');
// Text written into the page in an element of its own must not close it.
const inline = (tag, text, what) => {
  if (text.toLowerCase().includes(`</${tag}`)) throw new Error(`${what} holds </${tag}, which would end it in the page`);
  return `<${tag}>${text}</${tag}>`;
};
const styles = ['../node_modules/uplot/dist/uPlot.min.css', 'css/lab.css', 'css/echo.css']
  .map((f) => readFileSync(join(here, f), 'utf8')).join('\n');
const start = (await transform(readFileSync(join(here, 'js/start.js'), 'utf8'), { minify: true, target: 'es2020' })).code;
let html = readFileSync(join(here, 'index.html'), 'utf8');
for (const [marker, text] of [
  ['<!-- page styles -->', inline('style', styles, 'the styles')],
  ['<!-- page start -->', inline('script', `window.bloomlabFiles=${JSON.stringify(files)};${start}`, 'js/start.js')],
]) {
  if (!html.includes(marker)) throw new Error(`index.html has no ${marker} line`);
  html = html.replace(marker, () => text);
}
writeFileSync(join(out, 'index.html'), later(await prerender(html)));
copyFileSync(join(here, 'favicon.svg'), join(out, 'favicon.svg'));
// Section 13's sample: a small Parquet file DuckDB wrote (tests/parquet/duckdb_parquet.mjs write-sample).
copyFileSync(join(here, 'sample.parquet'), join(out, 'sample.parquet'));
// SQLite for section 10's worker: the bundle asks for sqlite3.wasm beside
// itself (new URL('sqlite3.wasm', import.meta.url)).
copyFileSync(join(here, '../node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm'), join(out, 'sqlite3.wasm'));
await precompress(out);

// Beside each file a browser fetches as text or WebAssembly, its brotli and
// gzip copies (app.js.br, app.js.gz), written here at the strongest
// settings: `bloomlab serve` sends the copy a browser asks for, and any
// static host that serves precompressed files can too. The gzip copies are
// Zopfli's (Debian's zopfli): the gzip format every browser reads, about 5%
// smaller than zlib's best, for the browsers that offer gzip alone (most
// do over plain HTTP). A copy no smaller than its file is not written.
// Source maps are left as they are (only a debugger reads them).
//
// The strongest settings cost seconds a file (about 15 s for the site), so
// the copies of a file whose bytes have not changed since the last build are
// kept, dated after the file. .precompressed.json (a hidden file, never
// served) records each file's SHA-256 and the copies written for it; it is
// removed while the copies are rewritten, so a build stopped halfway redoes
// them all. Copies of any other file (one that changed, or is gone) are
// removed first. The copies are made side by side, as many at once as the
// machine has cores (brotli on node's thread pool, Zopfli as processes).
async function precompress(dir) {
  const kinds = /\.(html|js|mjs|css|wasm|svg|json|txt)$/;
  const stampPath = join(dir, '.precompressed.json');
  let before = {};
  try {
    before = Object(JSON.parse(readFileSync(stampPath, 'utf8')));
  } catch {
    before = {};
  }
  rmSync(stampPath, { force: true });
  const names = readdirSync(dir);
  const sums = Object.fromEntries(names.filter((n) => kinds.test(n))
    .map((n) => [n, createHash('sha256').update(readFileSync(join(dir, n))).digest('hex')]));
  // A record that is not what this function writes keeps nothing.
  const kept = new Set(Object.keys(sums).filter((name) => {
    const b = before[name];
    return b && b.sha256 === sums[name] && Array.isArray(b.copies) &&
      b.copies.every((c) => (c === 'br' || c === 'gz') && existsSync(join(dir, `${name}.${c}`)));
  }));
  for (const name of names) {
    const source = name.replace(/\.(br|gz)$/, '');
    if (source !== name && !kept.has(source)) rmSync(join(dir, name));
  }
  const after = {};
  const jobs = [];
  for (const name of Object.keys(sums)) {
    if (kept.has(name)) {
      // The file was written again, so its kept copies are dated after it
      // (a millisecond past its time, at least: utimes takes milliseconds):
      // `bloomlab serve` sends no copy older than its file.
      const at = Math.max(Date.now(), Math.ceil(statSync(join(dir, name)).mtimeMs) + 1) / 1000;
      for (const c of before[name].copies) utimesSync(join(dir, `${name}.${c}`), at, at);
      after[name] = before[name];
      continue;
    }
    const bytes = readFileSync(join(dir, name));
    const make = {
      br: () => compressBrotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
      gz: async () => (await run('zopfli', ['-c', join(dir, name)], { encoding: 'buffer', maxBuffer: 1 << 30 })).stdout,
    };
    after[name] = { sha256: sums[name], copies: [] };
    for (const [suffix, copy] of Object.entries(make)) jobs.push({ name, suffix, bytes, copy });
  }
  // Largest first, so the last to finish is a short one.
  jobs.sort((a, b) => b.bytes.length - a.bytes.length);
  const made = new Map();
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) made.set(job, await job.copy());
  };
  const all = [...jobs];
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  // Written in a fixed order (br before gz), so the record is the same
  // whichever copy finished first.
  for (const job of all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.suffix < b.suffix ? -1 : 1))) {
    const copy = made.get(job);
    if (copy.length < job.bytes.length) {
      writeFileSync(join(dir, `${job.name}.${job.suffix}`), copy);
      after[job.name].copies.push(job.suffix);
    }
  }
  writeFileSync(stampPath, JSON.stringify(after));
}

// The sections after the first, each but its heading, inside a
// <noscript data-later>: a browser that runs scripts keeps that as text, so
// nothing in them is built, styled, laid out, or checked by the browser's
// form autofill (each of their few hundred fields, at the end of reading
// the page) before the first paint; js/start.js makes them elements once the
// first figures are painted, before any module of the page runs. Without
// scripts they are read and shown as written.
function later(page) {
  let wrapped = 0;
  const out = page.replace(/(<section id="([\w-]+)"[^>]*>\s*<h2\b[^>]*>[\s\S]*?<\/h2>)([\s\S]*?)(<\/section>)/g, (all, head, id, body, end) => {
    if (id === 'stage') return all;
    if (/<\/?(noscript|section)\b/i.test(body)) throw new Error(`section ${id} holds a <noscript> or <section>, so it cannot be wrapped in one`);
    wrapped++;
    return `${head}<noscript data-later>${body}</noscript>${end}`;
  });
  if (wrapped === 0) throw new Error('index.html has no section after section 1 to wrap');
  return out;
}

// Section 1 for its default inputs, drawn into the page: the engine's stage
// report, as the view draws it. The section is marked data-prerendered
// (which the view removes once it has drawn).
async function prerender(page) {
  const glue = join(out, 'bloomlab.mjs'), wasm = join(out, 'bloomlab.wasm');
  if (!existsSync(glue) || !existsSync(wasm)) {
    throw new Error(`${out} has no bloomlab.mjs and bloomlab.wasm, which section 1's first figures are computed with: build the engine first (make wasm)`);
  }
  const { default: createModule } = await import(pathToFileURL(resolve(glue)).href);
  const engine = await createModule({ wasmBinary: readFileSync(wasm) });
  const r = JSON.parse(engine.run('stage', JSON.stringify(stage.stageRequest(stage.defaults))));
  if (r.error) throw new Error(`the engine refused section 1's default inputs: ${r.error.message}`);
  // Fills the element with this id, empty in index.html.
  const fill = (text, id, inner, attrs = '') => {
    const at = new RegExp(`(<(\\w+) id="${id}"[^>]*)></\\2>`);
    if (!at.test(text)) throw new Error(`index.html has no empty element with id="${id}" for section 1's first figures`);
    return text.replace(at, (_, open, tag) => `${open}${attrs}>${inner}</${tag}>`);
  };
  const section = '<section id="stage"';
  if (!page.includes(section)) throw new Error(`index.html has no ${section}>`);
  page = page.replace(section, `${section} data-prerendered`);
  page = fill(page, 'stage-bits', stage.bitsHtml(r), ` style="--cols: ${stage.columns(r)};"`);
  page = fill(page, 'stage-removal', stage.removalHtml(r));
  page = fill(page, 'stage-items', stage.itemsHtml(r));
  page = fill(page, 'stage-summary', escapeHtml(stage.summaryText(r)));
  page = fill(page, 'stage-queries', stage.queriesHtml(r));
  page = fill(page, 'stage-odds', escapeHtml(stage.oddsText(r)));
  return answerAhead(page, engine);
}

// The slow requests of the later sections' default inputs, answered by the
// same engine now and written to answers.json (js/answers.js reads it), so
// those sections show their first figures as soon as they are drawn.
function answerAhead(page, engine) {
  const answers = {};
  for (const [op, request] of schemesJobs.defaultRequests()) {
    if (!answeredOps.has(op)) throw new Error(`${op} is not in answers.js's answeredOps, so the page would never look its answer up`);
    const report = engine.run(op, JSON.stringify(request));
    if (JSON.parse(report).error) throw new Error(`the engine refused a default ${op} request: ${report}`);
    answers[answerKey(op, request)] = report;
  }
  writeFileSync(join(out, 'answers.json'), JSON.stringify(answers));
  return page;
}
