// Here so that vitest, which looks for a config file upwards from the working directory, never
// picks up the config of an enclosing repository.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The emulator opens an SQLite database; separate processes keep tests independent.
    pool: 'forks',
    testTimeout: 30_000,
  },
});
