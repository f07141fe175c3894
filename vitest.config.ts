import { defineConfig } from 'vitest/config';
import react, { reactCompilerPreset } from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { fileURLToPath } from 'node:url';

const alias = {
  '@contract': fileURLToPath(new URL('./contract', import.meta.url)),
  '@web': fileURLToPath(new URL('./web', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
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
