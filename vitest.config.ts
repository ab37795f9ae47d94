import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { pathAliases } from './scripts/path-aliases';

// Separate from vite.config.ts (the tests need neither the PWA nor the CSP plugin), so the
// aliases are named here too; `extends: true` hands them to both projects.
export default defineConfig({
  resolve: { alias: pathAliases },
  test: {
    // One test file per core. Vitest's default leaves one core free (a single worker on CI's two),
    // while much of an API test waits on PostgreSQL, scrypt in libuv's pool or a child process.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { NODE_ENV: 'test' },
        },
      },
    ],
  },
});
