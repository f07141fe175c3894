// The analysis worker from the sources (tests, `npm run dev`): Node's worker threads do not read
// TypeScript, so this plain module lets tsx compile analysis-worker.ts (and the contract it
// imports, with the tsconfig's paths) inside the worker. The bundled server starts
// dist/server/analysis-worker.mjs instead (server/modules/recordings/analysis-pool.ts).
// @ts-check
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(/** @type {{ entry: string }} */ (workerData).entry, import.meta.url);
