import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/test/crash-helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Debian's haproxy in front of the servers, configured as docs/deploy.md says (health checks on
 * /api/health every second, redispatch and retries of failed connections), on a free port.
 */
export async function startHaproxy(servers: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'uk-haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'global',
      '    maxconn 4096',
      'defaults',
      '    mode http',
      '    timeout connect 5s',
      '    timeout client 65s',
      '    timeout server 65s',
      '    timeout http-keep-alive 10s',
      '    option http-server-close',
      '    option redispatch',
      '    retries 3',
      '    retry-on conn-failure empty-response response-timeout',
      'frontend web',
      `    bind 127.0.0.1:${port}`,
      '    option forwardfor',
      '    default_backend app',
      'backend app',
      '    balance leastconn',
      '    option httpchk GET /api/health',
      '    http-check expect status 200',
      '    default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions',
      ...servers.map((u, i) => `    server app${i + 1} ${new URL(u).host} check`),
      '',
    ].join('\n'),
  );
  const bin = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
  const proc = spawn(bin, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`haproxy stopped: ${out}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok).catch(() => false);
    if (ok) break;
    await sleep(100);
  }
  return {
    url,
    stop: async () => {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
