/**
 * The app is written against React's API and types, and runs on Preact's compatibility layer
 * (docs/decisions/react-on-preact.md): the same components in a third of the runtime's bytes, the
 * difference between a phone's first load that paints in time and one that does not (issue 14).
 * Vite (the build and the dev server) and the component tests resolve React's modules to these.
 */
export const REACT_ON_PREACT: Record<string, string> = {
  'react-dom/test-utils': 'preact/test-utils',
  'react-dom/client': 'preact/compat/client',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
  react: 'preact/compat',
};

/**
 * Libraries that import React themselves, for the component tests: Vitest pre-bundles them (and
 * Preact, so that there is one copy of its hooks) with the aliases above, and inlines the rest.
 * Without this Node would load them with the real React beside Preact (the `use-sync-external-store`
 * shims are CommonJS that `require('react')`).
 */
export const REACT_LIBRARIES = [
  'preact',
  'preact/hooks',
  'preact/compat',
  'preact/compat/client',
  'preact/jsx-runtime',
  'preact/jsx-dev-runtime',
  'preact/test-utils',
  'use-sync-external-store/shim',
  'use-sync-external-store/with-selector',
  'react-i18next',
  'react-router',
  'react-router/dom',
  '@tanstack/react-query',
  '@tanstack/react-query-persist-client',
  '@headlessui/react',
  '@testing-library/react',
  '@fullcalendar/react',
  'react-chartjs-2',
  'lucide-react',
];
