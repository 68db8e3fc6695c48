// npm test's checks before the suites, side by side: the type check (tsc -p .), the layer check
// (scripts/check-layers.mjs) and the formatting check (prettier --check .). Each is one thread, so
// one after another they left a core of a 2-core machine idle for the length of the longest two
// (tsc and Prettier, about 15 s each). Each check's output is printed whole when it ends (the three
// never interleave); the exit status is the first failing check's, or 0.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHECKS = [
  ['tsc -p .', ['node_modules/typescript/bin/tsc', '-p', '.']],
  ['check-layers', ['scripts/check-layers.mjs']],
  ['prettier --check .', ['node_modules/prettier/bin/prettier.cjs', '--check', '.']],
];

/** Runs one check to its end: its exit code and everything it wrote, in order. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${error.message}\n` }));
    child.on('close', (code, signal) =>
      resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() + (signal ? `killed by ${signal}\n` : '') }),
    );
  });
}

let status = 0;
await Promise.all(
  CHECKS.map(async ([name, args]) => {
    const { code, output } = await run(args);
    process.stdout.write(output);
    if (code !== 0) {
      console.error(`check: ${name} failed (exit ${code})`);
      status ||= code;
    }
  }),
);
process.exit(status);
