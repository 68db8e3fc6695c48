// apt-get for the project's set-up scripts, waiting for the package manager's lock: on a fresh
// machine another apt-get (unattended upgrades, a provisioning step) often holds it for minutes,
// and apt-get gives up at once with "Could not get lock".
import { spawnSync } from 'node:child_process';

const LOCKED =
  /Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock (the )?(administration )?directory/i;

/**
 * Runs `apt-get args…` (its output shown as it goes), retrying every `pollMs` while it fails on a
 * lock, for up to `waitMs`; says once that it is waiting (through `report`). Returns apt-get's exit
 * code (0: done).
 */
export function aptGet(
  args,
  {
    command = 'apt-get',
    waitMs = 600_000,
    pollMs = 5_000,
    env = process.env,
    stdout = 'inherit',
    report = (text) => process.stderr.write(text),
  } = {},
) {
  const started = Date.now();
  let said = false;
  for (;;) {
    const run = spawnSync(command, args, { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8', env });
    if (run.error) throw run.error;
    if (run.status === 0 || !LOCKED.test(run.stderr)) {
      report(run.stderr);
      return run.status ?? 1;
    }
    const waited = Date.now() - started;
    if (waited >= waitMs) {
      report(run.stderr);
      report(
        `apt: the package manager is still locked after ${Math.round(waited / 1000)} s by another apt-get or dpkg; ` +
          `wait for it to finish (ps aux | grep -E 'apt|dpkg'), then run the command again\n`,
      );
      return run.status ?? 1;
    }
    if (!said) {
      report(
        `apt: another apt-get or dpkg holds the package manager's lock; waiting for it (up to ${waitMs / 1000} s) …\n`,
      );
      said = true;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pollMs);
  }
}
