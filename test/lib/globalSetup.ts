// Vitest globalSetup: rebuilds, once before any suite runs, every build output older than its
// sources (scripts/build.mjs --stale), so the suites test what the sources say: the WASM core, the
// JS core (build/krieg.js, the very file the JS backend loads), the CLI and the web bundle.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--stale'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`scripts/build.mjs --stale failed:\n${build.stdout}${build.stderr}`);
  if (build.stdout.trim()) process.stdout.write(build.stdout);
}
