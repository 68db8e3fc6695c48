// The belief heatmap (./heatmap.ts) as a PNG image, on the PNG encoder of ./png.node.ts (node:zlib).
import { Canvas, GLYPH_HEIGHT, textWidth, type Rgb } from './png.node';
import { FILES, percent, type Heatmap } from './heatmap';

/** PNG square colours: the board's light and dark squares, and the colour a square turns towards as the share of positions with a piece there goes to 1. */
const LIGHT: Rgb = [240, 217, 181];
const DARK: Rgb = [181, 136, 99];
const FULL: Rgb = [165, 15, 21];
const INK: Rgb = [34, 34, 34];
const PAPER: Rgb = [255, 255, 255];

/** The colour of square (file, rank) at `share` (0 … 1) of the positions. */
export function squareColour(file: number, rank: number, share: number): Rgb {
  share = Math.min(1, Math.max(0, share));
  const base = (file + rank) % 2 === 0 ? DARK : LIGHT; // a1 is dark
  return [0, 1, 2].map((i) => Math.round(base[i] + (FULL[i] - base[i]) * share)) as unknown as Rgb;
}

/** PNG layout: square size and margins (pixels). */
export const PNG_SQUARE = 64;
export const PNG_LEFT = 28;
export const PNG_TOP = 16;
const PNG_RIGHT = 16;
const PNG_BOTTOM = 30;
export const PNG_WIDTH = PNG_LEFT + 8 * PNG_SQUARE + PNG_RIGHT;
export const PNG_HEIGHT = PNG_TOP + 8 * PNG_SQUARE + PNG_BOTTOM;

/**
 * The heatmap as a PNG image: 64 squares (rank 8 at the top) on the board's light and dark
 * colours, reddened by the share of positions with a piece there, with the count and percentage
 * written in each and file and rank labels; `title` goes into the file's Title text chunk.
 */
export function heatmapPng(map: Heatmap, title: string): Buffer {
  const S = PNG_SQUARE;
  const canvas = new Canvas(PNG_WIDTH, PNG_HEIGHT, PAPER);
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const count = map.counts[rank * 8 + file];
      const share = map.total === 0 ? 0 : count / map.total;
      const x = PNG_LEFT + file * S;
      const y = PNG_TOP + (7 - rank) * S;
      canvas.fill(x, y, S, S, squareColour(file, rank, share));
      const ink = share > 0.55 ? PAPER : INK;
      const text = String(count);
      const scale = textWidth(text, 2) <= S - 6 ? 2 : 1;
      canvas.centredText(x + S / 2, y + (scale === 2 ? 14 : 18), text, ink, scale);
      canvas.centredText(x + S / 2, y + 40, percent(count, map.total), ink);
    }
  }
  for (let i = 0; i < 8; i++) {
    canvas.centredText(PNG_LEFT + i * S + S / 2, PNG_TOP + 8 * S + 8, FILES[i], INK, 2);
    canvas.centredText(PNG_LEFT / 2, PNG_TOP + (7 - i) * S + S / 2 - GLYPH_HEIGHT, String(i + 1), INK, 2);
  }
  return canvas.png({
    Title: title,
    Description: `${map.color === 0 ? 'White' : 'Black'} pieces per square in ${map.total} position${map.total === 1 ? '' : 's'}`,
  });
}
