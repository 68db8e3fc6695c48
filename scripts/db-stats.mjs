// Writes the shipped problem database's statistics (`krieg db stats`) to bench/results/db-stats.md,
// which update-readme.mjs copies into the README, so the README quotes the database, never a hand
// copy. Usage: npm run db:stats (after npm install, which builds dist/cli.js).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stats = execFileSync(process.execPath, [join(root, 'dist/cli.js'), 'db', 'stats'], { cwd: root, encoding: 'utf8' });
writeFileSync(join(root, 'bench/results/db-stats.md'), `\`krieg db stats\` on the shipped \`data/problems.sqlite\`:\n\n\`\`\`text\n${stats.trimEnd()}\n\`\`\`\n`);
console.log(stats.trimEnd());
