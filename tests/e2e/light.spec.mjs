// Light on school Wi-Fi: what the first load of the page costs on the wire,
// with the compressed copies `bloomlab serve` sends when the browser asks
// (Chromium asks for gzip and, where it offers it, brotli), and what the
// whole page costs once every section has been scrolled to: headers and
// bodies as received, for the page and its workers.
import { test, expect } from './fixtures.mjs';
import { open } from './open.mjs';

const firstLoadLimit = 400_000;

// Counts every response the page and its dedicated workers receive, as
// Playwright reports their sizes (Chromium's own counts: the body as
// received, compressed or not, and the headers).
function wireCounter(page) {
  const seen = [];
  const pending = [];
  page.on('requestfinished', (request) => {
    pending.push((async () => {
      const response = await request.response();
      const sizes = await request.sizes();
      const status = response ? response.status() : 0;
      // A worker's own script is reported with a body of 0: its length
      // then is the Content-Length the server sent (the bytes as sent).
      const length = Number((response && await response.headerValue('content-length')) || 0);
      seen.push({
        url: request.url(),
        status,
        encoding: response ? (await response.headerValue('content-encoding')) || '' : '',
        bytes: sizes.responseHeadersSize + (status === 304 ? 0 : Math.max(sizes.responseBodySize, length)),
      });
    })());
  });
  const settled = async () => { while (pending.length) await pending.shift(); };
  return {
    list: async () => { await settled(); return seen.slice(); },
  };
}

function describe(label, entries) {
  const rows = entries.slice().sort((a, b) => b.bytes - a.bytes)
    .map((r) => `  ${String(r.bytes).padStart(9)}  ${r.status}  ${(r.encoding || '-').padEnd(4)}  ${new URL(r.url).pathname}`);
  const total = entries.reduce((a, r) => a + r.bytes, 0);
  return `${label}: ${total.toLocaleString('en-US')} bytes on the wire in ${entries.length} responses\n${rows.join('\n')}`;
}

test('the first load is under 400 KB on the wire, compressed', async ({ browser }, info) => {
  // A context of its own: nothing cached from the tests before.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const wire = wireCounter(page);
  await open(page, '/');
  await page.waitForLoadState('networkidle');
  const first = await wire.list();
  const firstBytes = first.reduce((a, r) => a + r.bytes, 0);
  console.log(describe('first load', first));
  info.annotations.push({ type: 'first load bytes', description: String(firstBytes) });
  // What the browser asked for compressed came compressed: the page, its
  // script and the engine's WebAssembly.
  for (const name of ['/', '/boot.js', '/app.js', '/bloomlab.wasm']) {
    const r = first.find((x) => new URL(x.url).pathname === name);
    expect(r, `${name} was loaded`).toBeTruthy();
    expect.soft(['br', 'gzip'], `${name} came compressed`).toContain(r.encoding);
  }
  expect.soft(firstBytes).toBeLessThan(firstLoadLimit);
  // What only a later section needs comes when it is reached: SQLite and
  // its worker (section 10), the sample Parquet file (section 13).
  for (const later of ['/sqlite3.wasm', '/db-worker.js', '/sample.parquet'])
    expect.soft(first.map((r) => new URL(r.url).pathname), later).not.toContain(later);

  // In all: every section brought into view (section 10 starts SQLite's
  // worker when it is), then nothing left to load.
  const ids = await page.locator('main section[id]').evaluateAll((els) => els.map((e) => e.id));
  for (const id of ids) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.locator(`#${id}[data-mounted]`).waitFor();
  }
  await page.locator('#database-out:not(.stale)').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const all = await wire.list();
  console.log(describe('in all, every section scrolled to', all));
  info.annotations.push({ type: 'all bytes', description: String(all.reduce((a, r) => a + r.bytes, 0)) });
  await context.close();
});

// A browser that offers gzip alone (brotli is offered only over HTTPS and
// to this machine by most browsers): every text and WebAssembly file comes
// as gzip, and the first load is under 400 KB too.
test('a browser that asks for gzip alone gets gzip, and its first load is under 400 KB too', async ({ browser }, info) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'gzip, deflate' } });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const wire = wireCounter(page);
  await open(page, '/');
  await page.waitForLoadState('networkidle');
  const first = await wire.list();
  console.log(describe('first load, gzip alone', first));
  const bytes = first.reduce((a, r) => a + r.bytes, 0);
  info.annotations.push({ type: 'first load bytes, gzip alone', description: String(bytes) });
  for (const r of first) {
    if (r.status !== 200 || !/\.(js|mjs|wasm|svg)$|\/$/.test(new URL(r.url).pathname) || r.bytes < 1000) continue;
    expect(r.encoding, new URL(r.url).pathname).toBe('gzip');
  }
  expect(bytes).toBeLessThan(firstLoadLimit);
  await context.close();
});
