import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Compile test JSX for production React: tests run with NODE_ENV=production,
  // where react/jsx-dev-runtime has no jsxDEV.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    globalSetup: ['tests/tmpdir.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more forks only fight over them.
    maxWorkers: 2,
    env: { NODE_ENV: 'production' },
  },
});
