import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // better-sqlite3 is a native addon and the end-to-end tests spawn servers: separate processes
    // isolate them more faithfully than worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
