import { defineConfig } from '@playwright/test';

// Browser tests run against the built app served by the real server (see tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
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
