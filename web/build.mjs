// Builds the static site: the page, its bundle, styles and the sample list.
// Usage: node web/build.mjs OUTDIR  (the engine's bloomlab.mjs and .wasm are
// built into the same folder by `make wasm`).
//
// The page's script is two entries that share their code (esbuild's
// splitting): boot.js, small, which the page runs as soon as it arrives to
// start the engine and draw section 1, and app.js (main.js), every other
// section, which boot.js runs after that. Both, and the chunks they import,
// are named in the page's head (modulepreload), so all are fetched with the
// page rather than one after another.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
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
// The workers are separate programs, each bundled whole.
await build({ ...common, entryPoints: { worker: join(here, 'js/worker.js'), 'db-worker': join(here, 'js/db-worker.js') } });

const preload = new Set();
for (const entry of ['js/boot.js', 'js/main.js']) {
  const found = Object.entries(page.metafile.outputs).find(([, o]) => o.entryPoint && o.entryPoint.endsWith(entry));
  if (!found) throw new Error(`esbuild wrote nothing for ${entry}`);
  for (const i of found[1].imports) if (i.kind === 'import-statement' && !i.external) preload.add(basename(i.path));
}
preload.delete('app.js');  // named after boot.js in index.html, to come second
const html = readFileSync(join(here, 'index.html'), 'utf8');
const marker = '<!-- page chunks -->';
if (!html.includes(marker)) throw new Error(`index.html has no ${marker} line`);
writeFileSync(join(out, 'index.html'),
  html.replace(marker, [...preload].map((c) => `<link rel="modulepreload" href="${c}">`).join('\n')));
copyFileSync(join(here, 'css/lab.css'), join(out, 'lab.css'));
copyFileSync(join(here, '../node_modules/uplot/dist/uPlot.min.css'), join(out, 'uPlot.min.css'));
copyFileSync(join(here, 'favicon.svg'), join(out, 'favicon.svg'));
// SQLite for section 10's worker: the bundle asks for sqlite3.wasm beside
// itself (new URL('sqlite3.wasm', import.meta.url)).
copyFileSync(join(here, '../node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm'), join(out, 'sqlite3.wasm'));
