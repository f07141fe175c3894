// `npm run test:e2e` after the build: the browser tests in two shards side by side, each with its
// own server, demo database, port and browser (playwright.config.ts). Most of a browser test is
// waiting (for the server, for the page, for the audio clock), so two shards on two cores take
// about two thirds of the time of one run and keep CI under its 30 minutes.
// E2E_SHARDS=1 runs them as one; extra arguments go to every `playwright test`.
import { spawn } from 'node:child_process';

const shards = Number(process.env.E2E_SHARDS ?? 2);
const basePort = Number(process.env.E2E_PORT ?? 4173);
const extra = process.argv.slice(2);

const runs = Array.from({ length: shards }, (_, i) => {
  const args = ['playwright', 'test', ...(shards > 1 ? [`--shard=${i + 1}/${shards}`] : []), ...extra];
  const env = { ...process.env, E2E_PORT: String(basePort + i), ...(shards > 1 ? { E2E_OUTPUT_DIR: `test-results/shard-${i + 1}` } : {}) };
  return new Promise((resolve) => {
    const child = spawn('npx', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tag = shards > 1 ? `[${i + 1}/${shards}] ` : '';
    const prefix = (stream, out) => {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) out.write(tag + line + '\n');
      });
      stream.on('end', () => rest && out.write(tag + rest + '\n'));
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on('close', (code) => resolve(code ?? 1));
  });
});

const codes = await Promise.all(runs);
const failed = codes.filter((c) => c !== 0).length;
if (failed) console.error(`\n${failed} of ${shards} browser test shard(s) failed.`);
process.exit(failed ? 1 : 0);
