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
await page.evaluate(([t, u]) => { localStorage.setItem('token', t); localStorage.setItem('lastUser', JSON.stringify({ tokenTail: t.slice(-12), user: u })); }, [login.token, login.user]);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
if (process.env.TRACE) await browser.startTracing(page, { path: '/tmp/trace.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'v8'] });
if (process.env.PROFILE) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
await page.addInitScript(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true }); });
const t0 = Date.now(); const reqs = []; page.on('request', (r) => reqs.push([Date.now() - t0, 'start', r.url().replace(base, '').slice(0, 70)])); page.on('requestfinished', (r) => reqs.push([Date.now() - t0, 'end', r.url().replace(base, '').slice(0, 70)]));
await page.goto(base + process.argv[3]);
await page.waitForTimeout(9000);
const { profile } = process.env.PROFILE ? await cdp.send('Profiler.stop') : { profile: { nodes: [], samples: [], timeDeltas: [] } };
if (process.env.TRACE) await browser.stopTracing();
for (const r of reqs) console.log(String(r[0]).padStart(6), r[1], r[2]);
const lts = await page.evaluate(() => window.__lt); console.log('TBT', lts.reduce((a, [, d]) => a + Math.max(0, d - 50), 0), 'LCP', await page.evaluate(() => new Promise((r) => new PerformanceObserver((l) => { const e = l.getEntries(); r(Math.round(e[e.length - 1].startTime)); }).observe({ type: 'largest-contentful-paint', buffered: true })))); console.log('long tasks', JSON.stringify(lts), 'elements', await page.evaluate(() => document.querySelectorAll('*').length));
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, us] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + us); }
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
for (const [k, us] of top) console.log((us / 1000).toFixed(0).padStart(6), 'ms', k);
// per file
const files = new Map(); for (const [id, us] of counts) { const n = byId.get(id); const f = n.callFrame.url.split('/').pop() || n.callFrame.functionName; files.set(f, (files.get(f) ?? 0) + us); }
console.log([...files].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([f, us]) => `${f}: ${(us / 1000).toFixed(0)} ms`).join('\n'));
if (process.env.PROFILE) {
  // INCL: inclusive time per function in the first window (ms of the page)
  const limit = Number(process.env.WINDOW ?? 1e9) * 1000;
  const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map(); let t = profile.startTime;
  profile.samples.forEach((id, i) => { t += profile.timeDeltas[i]; if (t - profile.startTime > limit) return; const seen = new Set(); let cur = id; while (cur !== undefined) { const n = byId.get(cur); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0)); } cur = parent.get(cur); } });
  if (process.env.CHILDREN) {
    // inclusive time of the callees under every node whose frame matches CHILDREN
    const want = process.env.CHILDREN;
    const inclNode = new Map(); const selfT = new Map(); profile.samples.forEach((id, i) => selfT.set(id, (selfT.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    const total = (n) => { if (inclNode.has(n.id)) return inclNode.get(n.id); let v = selfT.get(n.id) ?? 0; for (const c of n.children ?? []) v += total(byId.get(c)); inclNode.set(n.id, v); return v; };
    const agg = new Map();
    for (const n of profile.nodes) { const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; if (!k.includes(want)) continue; for (const c of n.children ?? []) { const cn = byId.get(c); const ck = `${cn.callFrame.functionName || '(anon)'} ${cn.callFrame.url.split('/').pop()}:${cn.callFrame.lineNumber}`; agg.set(ck, (agg.get(ck) ?? 0) + total(cn)); } }
    console.log('CHILDREN of', want); for (const [k, us] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((us / 1000).toFixed(0).padStart(6), k);
  }
  console.log('INCL'); for (const [k, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((us / 1000).toFixed(0).padStart(6), k);
}
await browser.close(); srv.kill();
