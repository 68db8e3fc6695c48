// Writes the shipped problem databases' statistics (`krieg db stats`) to bench/results/db-stats.md,
// which update-readme.mjs copies into the README, so the README quotes the databases, never a hand
// copy. Usage: npm run db:stats (after npm install, which builds dist/cli.js).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stats = (db) =>
  execFileSync(process.execPath, [join(root, 'dist/cli.js'), 'db', 'stats', '--db', db], {
    cwd: root,
    encoding: 'utf8',
  }).trimEnd();
const text = ['data/problems.sqlite', 'data/problems-standard.sqlite']
  .map((db) => `\`krieg db stats --db ${db}\`:\n\n\`\`\`text\n${stats(db)}\n\`\`\`\n`)
  .join('\n');
writeFileSync(join(root, 'bench/results/db-stats.md'), text);
console.log(text);
