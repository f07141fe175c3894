import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
const port = 4620; const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: mkdtempSync('/tmp/prof-'), DEMO_SEED: 'true', STATIC_DIR: process.argv[2], LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
const srv = spawn(process.execPath, ['dist/server/main.mjs'], { env, stdio: 'inherit' });
for (let i = 0; i < 100; i++) { try { if ((await fetch(base + '/api/health')).ok) break; } catch {} await new Promise((r) => setTimeout(r, 300)); }
const login = await (await fetch(base + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: process.argv[4] ?? 'ayse@example.com', password: 'demo1234' }) })).json();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
await page.goto(base + '/api/health');
await page.evaluate(([t, u]) => { localStorage.setItem('token', t); localStorage.setItem('lastUser', JSON.stringify(u)); }, [login.token, login.user]);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start');
await page.addInitScript(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true }); });
await page.goto(base + process.argv[3]);
await page.waitForTimeout(9000);
const { profile } = await cdp.send('Profiler.stop');
console.log('long tasks', JSON.stringify(await page.evaluate(() => window.__lt)), 'elements', await page.evaluate(() => document.querySelectorAll('*').length));
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, us] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + us); }
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
for (const [k, us] of top) console.log((us / 1000).toFixed(0).padStart(6), 'ms', k);
// per file
const files = new Map(); for (const [id, us] of counts) { const n = byId.get(id); const f = n.callFrame.url.split('/').pop() || n.callFrame.functionName; files.set(f, (files.get(f) ?? 0) + us); }
console.log([...files].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([f, us]) => `${f}: ${(us / 1000).toFixed(0)} ms`).join('\n'));
await browser.close(); srv.kill();
