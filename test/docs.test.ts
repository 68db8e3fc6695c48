// The README is a front door (issue #33): short, the two set-up commands first, and every relative
// link of it and of docs/ leads to a file of the repository.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './lib/cli';

const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The targets of a page's Markdown links and images outside code, without their #anchor. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^(https?:|mailto:|#)/.test(target))
    .map((target) => target.replace(/#.*$/, ''));
}

describe('the README and docs/', () => {
  it('README.md is at most 300 lines and shows npm install, then npm test, first', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1];
    expect(
      firstBlock
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+#/)[0].trim()),
    ).toEqual(['npm install', 'npm test']);
  });

  it.each(PAGES)('every relative link of %s resolves', (page) => {
    const links = relativeLinks(readFileSync(join(ROOT, page), 'utf8'));
    const missing = links.filter((target) => !existsSync(join(ROOT, dirname(page), decodeURI(target))));
    expect(missing).toEqual([]);
  });

  it('finds a broken link (the check itself)', () => {
    expect(relativeLinks('see [a](docs/none.md#x) and `[b](c)` and [web](https://x.org)')).toEqual(['docs/none.md']);
  });
});
