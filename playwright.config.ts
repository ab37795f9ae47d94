import { defineConfig } from '@playwright/test';

// Browser tests run against the built app served by the real server (see tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  // A web-first assertion waits up to 10 s (Playwright's default is 5 s): on a busy two-core machine
  // with both workers' servers and browsers running, a page that answers correctly can take longer
  // than 5 s to show it. A missing element still fails; it only fails later.
  expect: { timeout: 10_000 },
  // Two test files at a time (not fullyParallel: a file's tests share its server). Each worker has
  // its own servers on free ports, DATA_DIRs and browser, so files cannot see each other; much of a
  // browser test is waiting (mining sessions, the worker's install, timers), which the other fills.
  // `--workers=1` for a single file on a busy machine.
  workers: 2,
  reporter: process.env.CI ? 'list' : 'list',
  use: {
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
