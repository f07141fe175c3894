import { defineConfig } from 'vitest/config';
import react, { reactCompilerPreset } from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';

const alias = {
  '@contract': fileURLToPath(new URL('./contract', import.meta.url)),
  '@web': fileURLToPath(new URL('./web', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker fewer than the machine's cores: on the two cores of this
    // project's machines and CI, one file at a time and a core left idle. One more than the cores:
    // the API files wait on their database (PostgreSQL's own processes, PGlite's worker) and on
    // sockets, and a third worker fills those waits. Two cores, same hour: the whole suite 248 s
    // with two workers, 220 s with three; the API suite on PostgreSQL with three instances and S3
    // 138 s and 115 s (docs/decisions/bench-results.md, "CI's time").
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['contract/**/*.test.ts', 'web/**/*.test.ts', 'server/**/*.unit.test.ts', 'bench/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          environment: 'node',
          // The files of a worker share one module graph: each imported the whole server again
          // (105 of the project's 370 s). The server is made to run several apps in one process
          // (its per-app state hangs on the app's database, docs/decisions/0013-many-processes.md),
          // and every file makes its own app on its own database: 370 s -> 258 s, all passing.
          isolate: false,
          include: ['server/**/*.test.ts'],
          exclude: ['server/**/*.unit.test.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The components as the app ships them: React DOM, compiled by the React Compiler.
        plugins: [react(), babel({ presets: [reactCompilerPreset()] })],
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.tsx'],
          setupFiles: ['web/test/setup.ts'],
        },
      },
    ],
  },
});
