import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { REACT_LIBRARIES, REACT_ON_PREACT } from './web/react-on-preact';

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
        // The components on the runtime the app ships with (web/react-on-preact.ts).
        plugins: [react({ refreshExclude: /./ })],
        resolve: { alias: { ...alias, ...REACT_ON_PREACT } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.tsx'],
          setupFiles: ['web/test/setup.ts'],
          deps: { optimizer: { client: { enabled: true, include: REACT_LIBRARIES } } },
          server: { deps: { inline: true } },
        },
      },
    ],
  },
});
