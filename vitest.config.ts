import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more forks only fight over them.
    maxWorkers: 2,
    env: { NODE_ENV: 'production' },
  },
});
