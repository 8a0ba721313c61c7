// Browser tests: Debian's Chromium driven by Playwright, against the real
// `bloomlab serve` on 127.0.0.1 (no mock server). No browser is downloaded.
import { defineConfig } from '@playwright/test';

// BLOOMLAB_BUILD serves another build's site with its CLI (default
// build/release), and BLOOMLAB_PORT another port, so two checkouts can run
// their tests side by side.
const build = process.env.BLOOMLAB_BUILD || 'build/release';
const port = Number(process.env.BLOOMLAB_PORT || 18090);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 120_000,
  workers: 2,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `${build}/src/bloomlab serve --port ${port} --root ${build}/site`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
