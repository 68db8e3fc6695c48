// Copies generated benchmark tables into README.md, between the markers
//   <!-- begin bench/results/NAME.md --> … <!-- end bench/results/NAME.md -->
// so every figure in the README comes from a results file a bench script wrote.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readmePath = join(root, 'README.md');
let readme = readFileSync(readmePath, 'utf8');
const marker = /<!-- begin (bench\/results\/[\w.-]+\.md) -->[\s\S]*?<!-- end \1 -->/g;
readme = readme.replace(marker, (whole, file) => {
  const path = join(root, file);
  if (!existsSync(path)) {
    console.warn(`update-readme: ${file} not found, section left as it was`);
    return whole;
  }
  return `<!-- begin ${file} -->\n${readFileSync(path, 'utf8').trim()}\n<!-- end ${file} -->`;
});
writeFileSync(readmePath, readme);
console.log('README.md benchmark sections updated');
