// Where the opponent's pieces may stand: per square, how many positions of a belief state have a
// piece of one colour there. As counts (a1 = 0 … h8 = 63), an 8×8 text grid, and an SVG image (the PNG
// image, which needs node:zlib, is heatmapPng.node.ts).
import { pieceColor, pieceType } from '../notation/fen';

export const FILES = 'abcdefgh';

export interface Heatmap {
  /** Colour counted: WHITE 0, BLACK 1 (of the piece codes, assembly/chess/position.ts). */
  color: 0 | 1;
  /** Positions looked at. */
  total: number;
  /** Per square (a1 = 0 … h8 = 63): positions with a piece of `color` there. */
  counts: number[];
}

/**
 * Counts, over `boards` (piece codes a1 = 0 … h8 = 63, 0 empty), the pieces of `color` on each
 * square (of piece type `type` only, when given: pawn 1 … king 6).
 */
export function pieceHeatmap(boards: Iterable<ArrayLike<number>>, color: 0 | 1, type?: number): Heatmap {
  const counts = new Array<number>(64).fill(0);
  let total = 0;
  for (const board of boards) {
    total++;
    for (let sq = 0; sq < 64; sq++) {
      const piece = board[sq];
      if (piece !== 0 && pieceColor(piece) === color && (type === undefined || pieceType(piece) === type)) counts[sq]++;
    }
  }
  return { color, total, counts };
}

/** A share as a short percentage: 0%, <1%, 37%, >99%, 100%. */
export function percent(count: number, total: number): string {
  if (total === 0 || count === 0) return '0%';
  if (count === total) return '100%';
  const p = (100 * count) / total;
  return p < 1 ? '<1%' : p > 99 ? '>99%' : `${Math.round(p)}%`;
}

/** The heatmap as text: rank 8 at the top, each square "count pct". */
export function heatmapText(map: Heatmap): string {
  const countWidth = Math.max(...map.counts.map((c) => String(c).length));
  const pctWidth = Math.max(...map.counts.map((c) => percent(c, map.total).length));
  const width = countWidth + 1 + pctWidth;
  const cell = (c: number) => `${String(c).padStart(countWidth)} ${percent(c, map.total).padStart(pctWidth)}`;
  const centred = (text: string) => text.padStart(Math.floor((width + text.length) / 2)).padEnd(width);
  const lines = [`    ${[...FILES].map(centred).join('  ')}`.trimEnd()];
  for (let rank = 7; rank >= 0; rank--) {
    const row = [];
    for (let file = 0; file < 8; file++) row.push(cell(map.counts[rank * 8 + file]));
    lines.push(`${rank + 1}   ${row.join('  ')}`);
  }
  return lines.join('\n') + '\n';
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

/** Fill for a share from 0 (near white) to 1 (deep red). */
function shade(share: number): string {
  const mix = (a: number, b: number) => Math.round(a + (b - a) * share);
  const hex = (v: number) => v.toString(16).padStart(2, '0');
  return `#${hex(mix(0xf7, 0xa5))}${hex(mix(0xf4, 0x0f))}${hex(mix(0xf0, 0x15))}`;
}

/**
 * The heatmap as a standalone SVG image: 64 squares (one `<rect>` each, rank 8 at the top) shaded
 * by the share of positions with a piece there, the count and percentage written in each, file
 * and rank labels, and `title` above the board.
 */
export function heatmapSvg(map: Heatmap, title: string): string {
  const S = 64; // square size
  const left = 28,
    top = 56,
    right = 16,
    bottom = 32;
  const width = left + 8 * S + right;
  const height = top + 8 * S + bottom;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" style="background:#ffffff">`,
  );
  out.push(`  <title>${escapeXml(title)}</title>`);
  out.push(
    `  <text x="${width / 2}" y="24" font-size="16" font-weight="bold" text-anchor="middle">${escapeXml(title)}</text>`,
  );
  out.push(
    `  <text x="${width / 2}" y="44" font-size="12" fill="#555555" text-anchor="middle">${map.color === 0 ? 'White' : 'Black'} pieces per square in ${map.total} position${map.total === 1 ? '' : 's'}</text>`,
  );
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const count = map.counts[rank * 8 + file];
      const share = map.total === 0 ? 0 : count / map.total;
      const x = left + file * S;
      const y = top + (7 - rank) * S;
      const ink = share > 0.55 ? '#ffffff' : '#222222';
      out.push(
        `  <rect x="${x}" y="${y}" width="${S}" height="${S}" fill="${shade(share)}" stroke="#999999" stroke-width="1"><title>${FILES[file]}${rank + 1}: ${count} (${escapeXml(percent(count, map.total))})</title></rect>`,
      );
      out.push(
        `  <text x="${x + S / 2}" y="${y + S / 2 - 2}" font-size="${String(count).length > 6 ? 12 : 15}" text-anchor="middle" fill="${ink}">${count}</text>`,
      );
      out.push(
        `  <text x="${x + S / 2}" y="${y + S / 2 + 15}" font-size="11" text-anchor="middle" fill="${ink}">${escapeXml(percent(count, map.total))}</text>`,
      );
    }
  }
  for (let i = 0; i < 8; i++) {
    out.push(
      `  <text x="${left + i * S + S / 2}" y="${top + 8 * S + 20}" font-size="13" text-anchor="middle">${FILES[i]}</text>`,
    );
    out.push(
      `  <text x="${left / 2}" y="${top + (7 - i) * S + S / 2 + 5}" font-size="13" text-anchor="middle">${i + 1}</text>`,
    );
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
