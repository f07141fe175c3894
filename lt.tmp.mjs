import { chromium } from '@playwright/test';
const file = process.argv[2]; const rate = Number(process.argv[3]);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage();
await page.setContent('<input type=file id=f>');
await page.evaluate(() => { window.lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask' }); });
await page.setInputFiles('#f', file);
const r = await page.evaluate(async (rate) => {
  const marks = [];
  const m = (n) => marks.push([n, Math.round(performance.now())]);
  const f = document.getElementById('f').files[0];
  const bytes = await f.arrayBuffer(); m('arrayBuffer');
  await new Promise((r) => setTimeout(r, 300)); m('idle');
  const ctx = new OfflineAudioContext(1, 1, rate);
  const buf = await ctx.decodeAudioData(bytes); m('decoded ' + buf.length + ' ch' + buf.numberOfChannels);
  await new Promise((r) => setTimeout(r, 300)); m('idle');
  const ch = buf.getChannelData(0);
  let transferred = 'no';
  try { const w = new Worker(URL.createObjectURL(new Blob(['onmessage=()=>{}']))); w.postMessage(ch, [ch.buffer]); transferred = 'yes, length now ' + buf.getChannelData(0).length; } catch (e) { transferred = String(e); }
  m('transfer ' + transferred);
  await new Promise((r) => setTimeout(r, 300));
  return { marks, lt: window.lt };
}, rate);
console.log(JSON.stringify(r));
await browser.close();
