import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// Lists draw from deferred values (React renders them as transitions, in slices): on a loaded CI
// machine a slice-by-slice render of fifty cards in jsdom can take longer than the default second.
configure({ asyncUtilTimeout: 4000 });
