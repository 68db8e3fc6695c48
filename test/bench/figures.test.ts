// The figures `npm run bench:figures` writes (bench/results/figures/*.svg, committed and shown in the
// README) are well-formed SVG and draw what they claim: one curve per algorithm in every panel of
// the solved-within-t figures, one bar per algorithm in the WASM/JS figure, both classes in the
// interleaving scatter, the points and the fit in the speed-up figure. Reads the files only (the
// bench is never run here), checked against the Vega-Lite spec and data written beside each SVG.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseXml, elements, type XmlElement } from '../lib/xml';
import { ALGORITHMS } from '../../host/solver/solve';

const dir = join(__dirname, '../../bench/results/figures');
const svgs = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.svg')) : [];
/** The committed figures (a quick run's, *-quick.svg, are checked too when present). */
const REQUIRED = [
  'solved-problems.svg',
  'solved-problems-standard.svg',
  'interleave.svg',
  'speedup.svg',
  'wasm-js.svg',
];

const read = (file: string) => parseXml(readFileSync(join(dir, file), 'utf8'));
const role = (e: XmlElement) => e.attributes['aria-roledescription'];
/** The marks inside each mark container of the given kind ("line mark container" …). */
const containers = (svg: XmlElement, kind: string) => [...elements(svg)].filter((e) => role(e) === kind);
const labels = (e: XmlElement) =>
  [...elements(e)].map((x) => x.attributes['aria-label']).filter((l): l is string => l !== undefined);
const field = (label: string, name: string) => new RegExp(`(?:^|; )${name}: ([^;]+)`).exec(label)?.[1];

describe('figures (bench/results/figures)', () => {
  it('holds every figure docs/results.md shows', () => {
    for (const f of REQUIRED) expect(svgs, f).toContain(f);
    const readme = readFileSync(join(__dirname, '../../docs/results.md'), 'utf8');
    for (const f of REQUIRED) expect(readme, f).toContain(`bench/results/figures/${f}`);
  });

  it.each(svgs)('%s is well-formed SVG with its spec beside it', (file) => {
    const svg = read(file);
    expect(svg.name).toBe('svg');
    expect(Number(svg.attributes.width)).toBeGreaterThan(100);
    expect(Number(svg.attributes.height)).toBeGreaterThan(100);
    const spec = JSON.parse(readFileSync(join(dir, file.replace(/\.svg$/, '.vl.json')), 'utf8'));
    expect(spec.$schema).toMatch(/vega-lite/);
  });

  it.each(svgs.filter((f) => f.startsWith('solved-')))('%s: one curve per algorithm in every panel', (file) => {
    const svg = read(file);
    const spec = JSON.parse(readFileSync(join(dir, file.replace(/\.svg$/, '.vl.json')), 'utf8'));
    const panels: string[] = spec.facet.sort;
    expect(panels.length).toBeGreaterThanOrEqual(4); // 3- and 5-ply, mates and near-misses
    // the facet's cells, each holding its panel's lines
    const cells = [...elements(svg)].filter((e) => (e.attributes.class ?? '').includes('child_pathgroup'));
    expect(cells).toHaveLength(panels.length);
    for (const cell of cells) {
      const panel = {
        ...cell,
        children: cell.children.filter((c) => [...elements(c)].some((x) => role(x) === 'line mark')),
      };
      const series = labels(panel).map((l) => field(l, 'algorithm'));
      expect(series).toHaveLength(ALGORITHMS.length);
      expect(new Set(series)).toEqual(new Set(ALGORITHMS));
      // a curve is a percentage, from 0 at the left edge
      for (const l of labels(panel)) expect(Number(field(l, '% solved within t'))).toBe(0);
    }
    const legend = labels(svg).filter((l) => l.startsWith("Symbol legend titled 'algorithm'"));
    expect(legend).toHaveLength(1);
    expect(legend[0]).toContain(`${ALGORITHMS.length} values`);
    // the data behind it: every algorithm's curve in every panel, ending at the limit
    for (const panel of panels) {
      for (const a of ALGORITHMS) {
        const points = spec.data.values.filter(
          (p: { panel: string; algorithm: string }) => p.panel === panel && p.algorithm === a,
        );
        expect(points.length, `${panel} ${a}`).toBeGreaterThanOrEqual(2);
        const percents = points.map((p: { percent: number }) => p.percent);
        expect(percents).toEqual([...percents].sort((x: number, y: number) => x - y));
        expect(Math.max(...percents)).toBeLessThanOrEqual(100);
      }
    }
  });

  it.each(svgs.filter((f) => f.startsWith('wasm-js')))('%s: one bar per algorithm', (file) => {
    const bars = labels(read(file)).filter(
      (l) => field(l, 'JS time / WASM time') !== undefined && field(l, 'algorithm'),
    );
    expect(new Set(bars.map((l) => field(l, 'algorithm')))).toEqual(new Set(ALGORITHMS));
    expect(bars).toHaveLength(ALGORITHMS.length);
    for (const l of bars) expect(Number(field(l, 'JS time / WASM time'))).toBeGreaterThan(0);
  });

  it.each(svgs.filter((f) => f.startsWith('interleave')))('%s: a point per instance, mates and near-misses', (file) => {
    const svg = read(file);
    const spec = JSON.parse(readFileSync(join(dir, file.replace(/\.svg$/, '.vl.json')), 'utf8'));
    const points = containers(svg, 'symbol mark container')
      .flatMap(labels)
      .filter((l) => field(l, 'class'));
    expect(points).toHaveLength(spec.data.values.length);
    expect(new Set(points.map((l) => field(l, 'class')))).toEqual(new Set(['mate', 'near-miss']));
  });

  it.each(svgs.filter((f) => f.startsWith('speedup')))('%s: both baselines, the points and the fits', (file) => {
    const svg = read(file);
    const spec = JSON.parse(readFileSync(join(dir, file.replace(/\.svg$/, '.vl.json')), 'utf8'));
    const values: { kind: string; baseline: string }[] = spec.data.values;
    const points = containers(svg, 'symbol mark container')
      .flatMap(labels)
      .filter((l) => field(l, 'class'));
    expect(points).toHaveLength(values.filter((v) => v.kind === 'point').length);
    const lines = containers(svg, 'line mark container')
      .flatMap(labels)
      .map((l) => field(l, 'line'));
    expect(lines.filter((l) => l === 'fit')).toHaveLength(2); // one fit per baseline
    expect(lines.filter((l) => l === 'reference')).toHaveLength(2); // speed-up = belief size
  });
});
