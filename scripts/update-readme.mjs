// Copies generated benchmark tables into README.md and docs/*.md, between the markers
//   <!-- begin bench/results/NAME.md --> … <!-- end bench/results/NAME.md -->
// so every figure in the docs comes from a results file a bench script wrote. A results file's
// relative links (its figures) are written relative to the page that shows them.
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name)),
];
const marker = /<!-- begin (bench\/results\/[\w.-]+\.md) -->[\s\S]*?<!-- end \1 -->/g;
for (const page of pages) {
  const up = relative(dirname(page), root);
  const rebase = (text) =>
    up === ''
      ? text
      : text.replace(
          /(!?\[[^\]]*\]\()(?!https?:|#|\/)([^)\s]+)\)/g,
          (whole, lead, target) => `${lead}${up}/${target})`,
        );
  const text = readFileSync(page, 'utf8');
  const updated = text.replace(marker, (whole, file) => {
    const path = join(root, file);
    if (!existsSync(path)) {
      console.warn(`update-readme: ${file} not found, section left as it was`);
      return whole;
    }
    return `<!-- begin ${file} -->\n${rebase(readFileSync(path, 'utf8').trim())}\n<!-- end ${file} -->`;
  });
  if (updated !== text) writeFileSync(page, updated);
}
console.log('benchmark sections updated in README.md and docs/');
