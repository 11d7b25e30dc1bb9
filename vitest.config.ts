import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Storage and e2e suites start child processes (etcd, the server); two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
