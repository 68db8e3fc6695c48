// The benches' figures as Vega-Lite specifications, rendered to SVG in Node without a browser
// (vega-lite compiles to Vega; a headless Vega View with renderer 'none' writes the SVG; text is
// measured by Vega's built-in estimate, since no canvas package is installed). Each spec carries its
// data inline, so the .vl.json file written beside an SVG is the whole figure: it can be opened in
// the Vega editor as it is.
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { ALGORITHMS, type Algorithm } from '../../host/solver/solve';

export const BLACK_BOX: readonly Algorithm[] = ['dfs', 'l-dfs', 'gl-dfs', 'gx-dfs', 'le-dfs', 'pns', 'e-pns'];

/** One colour per algorithm, the same in every figure: black-box ones in cool tones, incremental in warm. */
const COLOURS: Record<Algorithm, string> = {
  dfs: '#1f3b73',
  'l-dfs': '#3a6fb0',
  'gl-dfs': '#6aa2d8',
  'gx-dfs': '#17becf',
  'le-dfs': '#2ca02c',
  pns: '#7f7f7f',
  'e-pns': '#9467bd',
  'l-dub': '#ff7f0e',
  'l-dbu': '#e377c2',
  'gl-dbu': '#d62728',
  ipns: '#8c564b',
};
const algorithmColour = {
  field: 'algorithm',
  type: 'nominal',
  title: 'algorithm',
  scale: { domain: [...ALGORITHMS], range: ALGORITHMS.map((a) => COLOURS[a]) },
} as const;

const FONT = {
  config: {
    font: 'DejaVu Sans, Helvetica, Arial, sans-serif',
    view: { stroke: '#ccc' },
    axis: { gridColor: '#eee' },
    legend: { labelLimit: 220 },
  },
};

/** Powers of ten from lo to hi, for log axes labelled in plain numbers. */
export function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.ceil(Math.log10(lo) - 1e-9); 10 ** e <= hi * (1 + 1e-9); e++)
    out.push(Number((10 ** e).toPrecision(1)));
  return out;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/** One point of a solved-within-time curve: `percent` of the panel's problems solved within `ms`. */
export interface CurvePoint {
  panel: string;
  algorithm: Algorithm;
  family: 'black-box' | 'incremental';
  ms: number;
  percent: number;
}

/**
 * Russell & Wolfe's Figure 4 (the paper's numbering; "Figure 1" in the issue): per panel (ply and
 * class), the percentage of problems each algorithm solves within time t, t on a log axis.
 */
export function solvedCurvesSpec(
  title: string,
  points: CurvePoint[],
  panels: string[],
  limitMs: number,
  minMs: number,
): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, anchor: 'start' },
    data: { values: points },
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      sort: panels,
      header: { labelFontSize: 13, labelFontWeight: 'bold' },
    },
    columns: 2,
    spec: {
      width: 300,
      height: 200,
      mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1.6, clip: true },
      encoding: {
        x: {
          field: 'ms',
          type: 'quantitative',
          title: 'time limit t (ms, log scale)',
          scale: { type: 'log', domain: [minMs, limitMs] },
          axis: { values: decades(minMs, limitMs), format: '~g' },
        },
        y: { field: 'percent', type: 'quantitative', title: '% solved within t', scale: { domain: [0, 100] } },
        color: algorithmColour,
        strokeDash: {
          field: 'family',
          type: 'nominal',
          title: 'family',
          scale: {
            domain: ['black-box', 'incremental'],
            range: [
              [4, 2],
              [1, 0],
            ],
          },
        },
        detail: { field: 'algorithm' },
      },
    },
    ...FONT,
  } as TopLevelSpec;
}

/** Curves of `times` (ms per problem; null: not solved within the limit) as step points from minMs to limitMs. */
export function curvePoints(
  panel: string,
  algorithm: Algorithm,
  times: (number | null)[],
  minMs: number,
  limitMs: number,
): CurvePoint[] {
  const n = times.length;
  const solved = times
    .filter((t): t is number => t !== null && t <= limitMs)
    .map((t) => Math.max(t, minMs))
    .sort((a, b) => a - b);
  const family = BLACK_BOX.includes(algorithm) ? 'black-box' : 'incremental';
  const points: CurvePoint[] = [{ panel, algorithm, family, ms: minMs, percent: 0 }];
  solved.forEach((t, i) => points.push({ panel, algorithm, family, ms: t, percent: (100 * (i + 1)) / n }));
  points.push({ panel, algorithm, family, ms: limitMs, percent: (100 * solved.length) / n });
  return points;
}

export interface InterleavePoint {
  db: string;
  id: number;
  ply: number;
  cls: string;
  size: number;
  sequentialMs: number;
  interleavedMs: number;
}

/** Russell & Wolfe's Figure 9: interleaved against sequential estimation + gl-dbu, per instance. */
export function interleaveSpec(points: InterleavePoint[], minMs: number, maxMs: number): TopLevelSpec {
  const domain = [minMs, maxMs];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Interleaved vs sequential estimation and gl-dbu search, per instance', anchor: 'start' },
    data: {
      values: points.map((p) => ({
        ...p,
        sequentialMs: Math.max(p.sequentialMs, minMs),
        interleavedMs: Math.max(p.interleavedMs, minMs),
        set: `${p.ply}-ply ${p.cls}`,
      })),
    },
    facet: {
      column: { field: 'db', type: 'nominal', title: null, header: { labelFontSize: 13, labelFontWeight: 'bold' } },
    },
    spec: {
      width: 300,
      height: 300,
      layer: [
        {
          data: {
            values: [
              { a: minMs, b: minMs },
              { a: maxMs, b: maxMs },
            ],
          },
          mark: { type: 'line', color: '#999', strokeDash: [3, 3] },
          encoding: { x: { field: 'a', type: 'quantitative' }, y: { field: 'b', type: 'quantitative' } },
        },
        {
          mark: { type: 'point', filled: true, opacity: 0.6, size: 28 },
          encoding: {
            x: {
              field: 'sequentialMs',
              type: 'quantitative',
              title: 'sequential: estimate, then search (ms)',
              scale: { type: 'log', domain },
              axis: { values: decades(minMs, maxMs), format: '~g' },
            },
            y: {
              field: 'interleavedMs',
              type: 'quantitative',
              title: 'interleaved (ms)',
              scale: { type: 'log', domain },
              axis: { values: decades(minMs, maxMs), format: '~g' },
            },
            color: {
              field: 'cls',
              type: 'nominal',
              title: 'class',
              scale: { domain: ['mate', 'near-miss'], range: ['#1f77b4', '#d62728'] },
            },
            shape: {
              field: 'ply',
              type: 'nominal',
              title: 'ply',
              scale: { domain: [3, 5, 7], range: ['circle', 'triangle-up', 'square'] },
            },
            tooltip: [{ field: 'id' }, { field: 'size' }],
          },
        },
      ],
    },
    resolve: { scale: { x: 'shared', y: 'shared' } },
    ...FONT,
  } as TopLevelSpec;
}

export interface SpeedupPoint {
  baseline: string;
  db: string;
  id: number;
  ply: number;
  cls: string;
  size: number;
  speedup: number;
  bound: boolean;
}
export interface Fit {
  baseline: string;
  slope: number;
  intercept: number;
  n: number;
  from: number;
  to: number;
}

/**
 * Incremental speed-up against belief size: gl-dbu over the best black-box algorithm and over dfs,
 * per instance (hollow: a lower bound, the baseline reached the limit), with the least-squares fit
 * log speed-up = intercept + slope · log size and the paper's prediction, speed-up = belief size.
 */
export function speedupSpec(points: SpeedupPoint[], fits: Fit[], baselines: string[]): TopLevelSpec {
  const sizes = points.map((p) => p.size);
  const lo = Math.max(1, Math.min(...sizes));
  const hi = Math.max(...sizes, 2);
  const lines = fits.flatMap((f) =>
    [f.from, f.to].map((x) => ({
      baseline: f.baseline,
      size: x,
      speedup: Math.exp(f.intercept) * x ** f.slope,
      line: `fit: ∝ size^${f.slope.toFixed(2)}`,
    })),
  );
  const reference = baselines.flatMap((baseline) =>
    [lo, hi].map((x) => ({ baseline, size: x, speedup: x, line: 'speed-up = belief size' })),
  );
  const ys = points.map((p) => p.speedup).filter((y) => y > 0);
  const yDomain = [Math.min(0.1, ...ys), Math.max(1000, ...ys)];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Speed-up of gl-dbu against belief size, per instance (hollow: lower bound)', anchor: 'start' },
    facet: {
      column: {
        field: 'baseline',
        type: 'nominal',
        title: null,
        sort: baselines,
        header: { labelFontSize: 13, labelFontWeight: 'bold' },
      },
    },
    data: {
      values: [
        ...points.map((p) => ({ ...p, kind: 'point' })),
        ...lines.map((l) => ({ ...l, kind: 'fit' })),
        ...reference.map((l) => ({ ...l, kind: 'reference' })),
      ],
    },
    spec: {
      width: 320,
      height: 260,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'point'" }],
          mark: { type: 'point', opacity: 0.55, size: 22 },
          encoding: {
            x: {
              field: 'size',
              type: 'quantitative',
              title: 'belief size (positions, log scale)',
              scale: { type: 'log', domain: [lo, hi] },
              axis: {
                values: decades(10 ** Math.floor(Math.log10(lo)), hi)
                  .flatMap((d) => [d, 2 * d, 5 * d])
                  .filter((v) => v >= lo && v <= hi),
                format: '~g',
              },
            },
            y: {
              field: 'speedup',
              type: 'quantitative',
              title: 'time(baseline) / time(gl-dbu)',
              scale: { type: 'log', domain: yDomain },
              axis: { values: decades(yDomain[0], yDomain[1]), format: '~g' },
            },
            color: {
              field: 'cls',
              type: 'nominal',
              title: 'class',
              scale: { domain: ['mate', 'near-miss'], range: ['#1f77b4', '#d62728'] },
            },
            shape: {
              field: 'ply',
              type: 'nominal',
              title: 'ply',
              scale: { domain: [3, 5, 7], range: ['circle', 'triangle-up', 'square'] },
            },
            fill: {
              condition: { test: 'datum.bound', value: 'transparent' },
              field: 'cls',
              type: 'nominal',
              title: 'class',
              scale: { domain: ['mate', 'near-miss'], range: ['#1f77b4', '#d62728'] },
            },
          },
        },
        {
          transform: [{ filter: "datum.kind !== 'point'" }],
          mark: { type: 'line', strokeWidth: 2 },
          encoding: {
            x: { field: 'size', type: 'quantitative' },
            y: { field: 'speedup', type: 'quantitative' },
            strokeDash: {
              field: 'kind',
              type: 'nominal',
              title: 'line',
              scale: {
                domain: ['fit', 'reference'],
                range: [
                  [1, 0],
                  [4, 3],
                ],
              },
            },
            detail: { field: 'line' },
            color: { value: '#333' },
          },
        },
      ],
    },
    resolve: { scale: { y: 'shared' } },
    ...FONT,
  } as TopLevelSpec;
}

export interface RatioBar {
  algorithm: Algorithm;
  ratio: number;
  problems: number;
}

/** WASM against the same core compiled to JS: total JS time / total WASM time per algorithm, on identical work. */
export function backendRatioSpec(bars: RatioBar[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Speed of WASM over JS (same source, identical work), per algorithm', anchor: 'start' },
    data: { values: bars.map((b) => ({ ...b, label: `${b.ratio.toFixed(2)}×` })) },
    width: 520,
    height: 240,
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          x: { field: 'algorithm', type: 'nominal', sort: [...ALGORITHMS], title: null, axis: { labelAngle: -40 } },
          y: { field: 'ratio', type: 'quantitative', title: 'JS time / WASM time' },
          color: { ...algorithmColour, legend: null },
        },
      },
      {
        mark: { type: 'text', dy: -6, fontSize: 10 },
        encoding: {
          x: { field: 'algorithm', type: 'nominal', sort: [...ALGORITHMS] },
          y: { field: 'ratio', type: 'quantitative' },
          text: { field: 'label' },
        },
      },
    ],
    ...FONT,
  } as TopLevelSpec;
}
