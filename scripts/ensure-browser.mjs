// `npm test` runs the web tests in headless Chromium (test/web/browser.test.ts, via playwright-core
// against the system browser, so no Playwright browser download is needed). This pretest step makes
// sure /usr/bin/chromium exists: as root it installs Debian's `chromium` package with apt-get;
// otherwise it says what to install and fails, rather than letting the browser test fail obscurely.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { aptGet } from './apt.mjs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let hasApt = false;
try {
  execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
  hasApt = true;
} catch {
  /* no apt-get */
}

if (!isRoot || !hasApt) {
  console.error(
    `ensure-browser: ${CHROMIUM} not found; the browser tests (test/web) need it.\n` +
      (hasApt
        ? '  Install it with:  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium\n'
        : '  Install Chromium so that it is available at /usr/bin/chromium (e.g. Debian/Ubuntu package `chromium`).\n'),
  );
  process.exit(1);
}

const t0 = performance.now();
console.log(`ensure-browser: ${CHROMIUM} not found; installing Debian's chromium with apt-get …`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
  const status = aptGet(args, { env });
  if (status !== 0) {
    console.error(`ensure-browser: installing chromium failed (apt-get ${args[0]} exited with ${status}).`);
    process.exit(1);
  }
}
if (!existsSync(CHROMIUM)) {
  console.error(`ensure-browser: apt-get finished but ${CHROMIUM} is still missing.`);
  process.exit(1);
}
console.log(`ensure-browser: chromium installed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
