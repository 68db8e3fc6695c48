import { chromium } from 'playwright-core';
import { serveStatic, WEB_DIR, SHIPPED_DB } from './scripts/static-server.mjs';
const { server, url } = await serveStatic(WEB_DIR, { extra: SHIPPED_DB });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
page.on('console', (m) => console.log('CONSOLE', m.type(), m.text()));
await page.goto(url);
await page.waitForSelector('#app[data-ready=true]', { timeout: 15000 });
await page.selectOption('#opponent', 'random');
await page.fill('#time', '0.2');
await page.click('#new-game');
await page.waitForSelector('#app[data-state=your-move]');
const r = await page.evaluate(async () => {
  const app = document.getElementById('app'); const board = document.getElementById('board');
  const log = [];
  for (let i = 0; i < 12; i++) {
    const offered = board.dataset.attempts.split(' ');
    const uci = offered[i % offered.length];
    const n = document.getElementById('transcript').childElementCount;
    for (const sq of [uci.slice(0,2), uci.slice(2,4)]) {
      const el = board.querySelector(`[data-square="${sq}"]`); const rc = el.getBoundingClientRect();
      const at = { clientX: rc.left + rc.width/2, clientY: rc.top + rc.height/2, bubbles: true };
      el.dispatchEvent(new PointerEvent('pointerdown', at)); el.dispatchEvent(new PointerEvent('pointerup', at));
    }
    await new Promise(r => setTimeout(r, 300));
    log.push([uci, app.dataset.state, n, document.getElementById('transcript').childElementCount, document.getElementById('status').textContent]);
  }
  return log;
});
console.log(r);
await browser.close(); server.close();
