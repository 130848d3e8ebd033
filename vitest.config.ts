import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'plugins/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.ts'],
      tsconfig: 'packages/core/tsconfig.test.json',
    },
    // Generous: tests start real servers and processes, and must pass on a loaded 2-core machine.
    // A test waits on conditions, never on time; these limits only end a test that hangs.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
