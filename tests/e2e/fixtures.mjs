// Playwright's test and expect, with one browser context per worker: each
// test still gets a page of its own (a new tab, closed after it, with any
// tab the test opened), but the tabs share the context's caches, and one
// tab of the site stays open all along (a small file of the site), so each
// test's tab joins a renderer that is already running, as a visitor's
// second tab would. Measured over 12 opens of the page, 2 cores: 1.9-2.0 s
// of CPU an open in a new context each, 1.9-2.0 in one context with no tab
// kept open, 1.2-1.3 with one kept open. The page keeps nothing in the
// browser's storage (no cookies, localStorage or IndexedDB), so no test
// sees another's state. A test that needs a first visit (light.spec,
// speed.spec) or other context options makes its own context.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  workerContext: [async ({ browser }, use, workerInfo) => {
    const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
    const kept = await context.newPage();
    await kept.goto('/favicon.svg');
    await use(context);
    await context.close();
  }, { scope: 'worker' }],
  context: async ({ workerContext }, use) => {
    await use(workerContext);
  },
  page: async ({ workerContext }, use) => {
    const before = new Set(workerContext.pages());
    const page = await workerContext.newPage();
    await use(page);
    for (const opened of workerContext.pages()) if (!before.has(opened)) await opened.close();
  },
});
export { expect };
