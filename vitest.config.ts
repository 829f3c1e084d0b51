import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['pipeline/**/*.test.ts', 'stages/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests spawn git, DuckDB and Docker work: generous but bounded.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
