// A/B: the login page as served, against the same page with the kernel fetched after the first frame
// (and, arm C, with no kernel at all: the floor). Document rewritten through page.route in every arm.
import { chromium } from 'playwright-core';
import { startPanel } from '../bench/lib.mjs';
const RUNS = Number(process.env.RUNS ?? 15);
function probe() {
  window.__firstPaint = null;
  const shown = (el) => { const b = el.getBoundingClientRect(); if (!b.width || !b.height) return false; for (let n = el; n && n.nodeType === 1; n = n.parentElement) { const s = getComputedStyle(n); if (s.opacity !== '1' || s.visibility === 'hidden' || s.display === 'none') return false; } return true; };
  const check = () => { if (window.__firstPaint !== null) return true; for (const el of document.querySelectorAll('input[type="password"]')) if (shown(el)) { window.__firstPaint = performance.now(); return true; } return false; };
  new MutationObserver(() => { if (window.__firstPaint === null) requestAnimationFrame(check); }).observe(document, { subtree: true, childList: true, attributes: true });
  const frame = () => { if (!check()) requestAnimationFrame(frame); }; requestAnimationFrame(frame);
}
const panel = await startPanel();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'] });
const arms = {
  asIs: (h) => h,
  afterPaint: (h) => h.replace(/<script type="module" src="([^"]+)"><\/script>/, (_m, src) => `<script>requestAnimationFrame(()=>setTimeout(()=>{const s=document.createElement('script');s.type='module';s.src=${JSON.stringify(src)};document.head.appendChild(s)}))</script>`),
  none: (h) => h.replace(/<script type="module" src="([^"]+)"><\/script>/, ''),
};
const results = Object.fromEntries(Object.keys(arms).map((k) => [k, []]));
for (let i = 0; i <= RUNS; i++) {
  for (const [name, rewrite] of Object.entries(arms)) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    await context.addInitScript(probe);
    await context.route('**/auth/login', async (route) => {
      const res = await route.fetch();
      const headers = { ...res.headers() }; delete headers['content-security-policy']; delete headers['content-encoding']; delete headers['content-length'];
      await route.fulfill({ status: res.status(), headers, body: rewrite(await res.text()) });
    });
    const page = await context.newPage();
    await page.goto(`${panel.url}/auth/login`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__firstPaint !== null, null, { polling: 50 });
    const v = await page.evaluate(() => window.__firstPaint);
    await page.waitForLoadState('networkidle').catch(() => {});
    if (i > 0) results[name].push(v);
    await context.close();
  }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
for (const [k, v] of Object.entries(results)) console.log(k.padEnd(12), 'median', med(v).toFixed(0), 'range', Math.min(...v).toFixed(0), '-', Math.max(...v).toFixed(0));
await browser.close(); await panel.close?.();
process.exit(0);
