// Browser tests: Debian's Chromium driven by Playwright, against the real
// `bloomlab serve` on 127.0.0.1 (no mock server). No browser is downloaded.
import { defineConfig } from '@playwright/test';

const port = 18090;

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
    command: `build/release/src/bloomlab serve --port ${port} --root build/release/site`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
