// `npm run check`: the type checker and the linter side by side (each uses one core; one after the
// other took 42 s + 47 s on a two-core machine). Each one's output is printed as a block when it
// ends, so the two never interleave; fails when either fails.
import { spawn } from 'node:child_process';

const run = (name, args) =>
  new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      process.stdout.write(`--- ${name}: ${code === 0 ? 'ok' : `failed (${code})`}\n${out}`);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all([
  run('tsc', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  run('eslint', ['eslint', '--max-warnings=0', '.']),
]);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
