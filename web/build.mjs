// Builds the static site: the page, its bundle, styles and the sample list.
// Usage: node web/build.mjs OUTDIR  (the engine's bloomlab.mjs and .wasm are
// built into the same folder by `make wasm`).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error('usage: node web/build.mjs OUTDIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(here, 'js/main.js'), worker: join(here, 'js/worker.js'), 'db-worker': join(here, 'js/db-worker.js') },
  bundle: true,
  format: 'esm',
  minify: true,
  sourcemap: true,
  target: ['es2020'],
  outdir: out,
  external: ['./bloomlab.mjs'],
  loader: { '.txt': 'text' },
  logLevel: 'warning',
});
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'css/lab.css'), join(out, 'lab.css'));
copyFileSync(join(here, '../node_modules/uplot/dist/uPlot.min.css'), join(out, 'uPlot.min.css'));
copyFileSync(join(here, 'favicon.svg'), join(out, 'favicon.svg'));
// SQLite for section 10's worker: the bundle asks for sqlite3.wasm beside
// itself (new URL('sqlite3.wasm', import.meta.url)).
copyFileSync(join(here, '../node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm'), join(out, 'sqlite3.wasm'));
