// Debian's chromium, headless, as every browser test launches it (the flags keep it off the network).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} not found: run \`node scripts/ensure-browser.mjs\` (npm test does so in pretest)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // each context's window would preload the omnibox popup's WebUI page in a renderer of its own
      // (traced: 200–280 ms of CPU during the app's load, on 2 cores), which a browser already open
      // has done long before a page loads (bench:web)
      '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup',
    ],
  });
}
