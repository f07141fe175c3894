// `npm run test:e2e` after the build: the browser tests as one run, or with E2E_SHARDS=2 in two
// shards side by side, each with its own server, demo database, port and browser
// (playwright.config.ts). One run stays the default until the shards have shown on a quiet machine
// that they are faster and that no spec file leans on another's data; extra arguments go to every
// `playwright test`.
import { spawn } from 'node:child_process';

const shards = Number(process.env.E2E_SHARDS ?? 1);
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
