// The material graph of a match, as Parker, Nau & Subrahmanian draw theirs (Figs. 2–3): each
// player's mean material after every move, as White and as Black. Hand-written SVG — four
// polylines, two axes and a legend need no plotting library (and none then needs a browser or a
// canvas to render in Node); the file opens in any browser.
import type { MatchSummary } from './matchStats';

const WIDTH = 720;
const HEIGHT = 420;
const LEFT = 56;
const RIGHT = 16;
const TOP = 36;
const BOTTOM = 48;
const COLOURS = ['#1f77b4', '#7fb2dd', '#d62728', '#f0a0a0'];
const DASHES = ['', '6 4', '', '6 4'];

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A round step for axis ticks covering `max` in about `count` steps. */
function tickStep(max: number, count: number): number {
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
}

export function materialSvg(summary: MatchSummary, title: string): string {
  const [p, q] = summary.players;
  const series = [
    { label: `${p.name} material when white`, values: p.asWhite },
    { label: `${p.name} material when black`, values: p.asBlack },
    { label: `${q.name} material when white`, values: q.asWhite },
    { label: `${q.name} material when black`, values: q.asBlack },
  ];
  const plies = Math.max(10, ...series.map((s) => s.values.length));
  const yMax = 40; // 39 at the start: Q + 2R + 2B + 2N + 8P
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (t: number) => LEFT + (t / plies) * plotW;
  const y = (v: number) => TOP + plotH - (v / yMax) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14">${escape(title)}</text>`,
    `<rect x="${LEFT}" y="${TOP}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
  ];
  const xStep = tickStep(plies, 8);
  for (let t = 0; t <= plies; t += xStep) {
    out.push(
      `<line x1="${x(t).toFixed(1)}" y1="${TOP + plotH}" x2="${x(t).toFixed(1)}" y2="${TOP + plotH + 4}" stroke="#888"/>`,
      `<text x="${x(t).toFixed(1)}" y="${TOP + plotH + 18}" text-anchor="middle">${t}</text>`,
    );
  }
  for (let v = 0; v <= yMax; v += 5) {
    out.push(
      `<line x1="${LEFT - 4}" y1="${y(v).toFixed(1)}" x2="${LEFT + plotW}" y2="${y(v).toFixed(1)}" stroke="#eee"/>`,
      `<text x="${LEFT - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`,
    );
  }
  out.push(
    `<text x="${LEFT + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">Move (ply)</text>`,
    `<text x="16" y="${TOP + plotH / 2}" text-anchor="middle" transform="rotate(-90 16 ${TOP + plotH / 2})">Material value</text>`,
  );
  series.forEach((s, i) => {
    if (s.values.length === 0) return;
    // the mean material after ply t + 1
    const points = s.values.map((v, t) => `${x(t + 1).toFixed(1)},${y(v).toFixed(1)}`);
    out.push(
      `<polyline fill="none" stroke="${COLOURS[i]}" stroke-width="1.5"${DASHES[i] ? ` stroke-dasharray="${DASHES[i]}"` : ''} points="${points.join(' ')}"/>`,
    );
  });
  series.forEach((s, i) => {
    const ly = TOP + plotH - 16 - (series.length - 1 - i) * 16;
    const lx = LEFT + plotW - 230;
    out.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 24}" y2="${ly - 4}" stroke="${COLOURS[i]}" stroke-width="2"${DASHES[i] ? ` stroke-dasharray="${DASHES[i]}"` : ''}/>`,
      `<text x="${lx + 30}" y="${ly}">${escape(s.label)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
