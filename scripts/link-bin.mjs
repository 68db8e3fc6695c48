// npm's prepare step, after the build: links node_modules/.bin/krieg to this clone's dist/cli.js, so
// that `npx krieg …` in the clone runs the build `npm install` just made. Without the link npx finds
// no local `krieg`, installs the clone as a `file:` package and builds it all again behind its spinner
// (a minute or more). A package installed from the registry or a tarball gets its bin from npm.
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin');
const link = join(bin, 'krieg');
const target = join('..', '..', 'dist', 'cli.js'); // relative: the clone may move

// a clone built as some other project's dependency lives inside that project's node_modules
if (!root.split(sep).includes('node_modules') && existsSync(join(root, 'node_modules'))) {
  if (!isLink(link) || readlinkSync(link) !== target) {
    mkdirSync(bin, { recursive: true });
    rmSync(link, { force: true });
    symlinkSync(target, link);
  }
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
