// The page's first script: a plain script that web/build.mjs writes into the
// head of index.html, with window.bloomlabFiles set just before it to the
// page's modules ([boot.js, the chunks it shares with app.js, app.js]).
//
// Section 1's first figures come with the page (web/build.mjs), so nothing
// of the page's own code is needed to show them. On a two-core machine every
// file fetched and compiled before the first paint (modules, the engine's
// WebAssembly) takes processor time from reading, laying out and painting
// the page, and pushes the first paint back. So this script only marks the
// page (below) and waits for the first contentful paint; then it starts the
// engine's two files (engine.js's load() takes them: window.bloomlabStart)
// and the page's modules. boot.js, the first of them, draws section 1 over
// its figures and runs app.js for the other sections.
//
// A link that asks for another filter (section 1's st_ keys) or points at
// another section has nothing of the page's to wait for: the modules start
// at once, as they do in a hidden page (which paints nothing).
(() => {
  const root = document.documentElement;
  // Section 1's form and drawing are hidden until its view has drawn the
  // link's filter (the style in the page's head: html.stage-stale), so the
  // default filter's figures never show in its place.
  if (/[?&]st_/.test(location.search)) root.classList.add('stage-stale');
  const atTop = !location.hash || location.hash === '#stage' || location.hash === '#main';

  // The sections after the first come in the page as text, each but its
  // heading (web/build.mjs writes them inside <noscript data-later>, which a
  // browser running scripts does not read into elements): none of their
  // markup is built, styled, laid out or checked by the browser's form
  // autofill before the first paint. They become elements once the first
  // figures are painted, once the page has been read, before any module of
  // the page runs.
  const unwrap = () => {
    for (const box of document.querySelectorAll('noscript[data-later]')) {
      box.insertAdjacentHTML('beforebegin', box.textContent);
      box.remove();
    }
  };

  let started = false;
  function start() {
    if (started) return;
    started = true;
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', unwrap, { once: true });
    else unwrap();
    const early = window.bloomlabStart = { glue: import('./bloomlab.mjs') };
    early.glue.catch(() => {});
    if (typeof WebAssembly === 'object' && WebAssembly.compileStreaming) {
      // Compiled off the main thread as it arrives; the bytes are kept too,
      // for a compile at once if the result is not delivered in time.
      early.compiled = fetch('bloomlab.wasm', { credentials: 'same-origin' }).then((response) => {
        if (!response.ok) throw new Error(`bloomlab.wasm: ${response.status}`);
        response.clone().arrayBuffer().then((bytes) => { early.bytes = bytes; }, () => {});
        return WebAssembly.compileStreaming(response);
      }).then((compiled) => { early.module = compiled; return compiled; });
      early.compiled.catch(() => {});
    }
    const [boot, ...rest] = window.bloomlabFiles;
    for (const href of rest) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.src = boot;
    document.head.append(script);
  }

  const painted = typeof PerformanceObserver === 'function' &&
    (PerformanceObserver.supportedEntryTypes || []).includes('paint');
  if (!atTop || root.classList.contains('stage-stale') || document.visibilityState === 'hidden') {
    start();
    return;
  }
  if (!painted) {
    // No paint timing: the frame after the first one.
    requestAnimationFrame(() => requestAnimationFrame(start));
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (!list.getEntries().some((e) => e.name === 'first-contentful-paint')) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  // Whatever happens to the paint (the page hidden before it), the lab starts.
  document.addEventListener('visibilitychange', start, { once: true });
  setTimeout(start, 3000);
})();
