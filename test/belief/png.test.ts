// The PNG heatmap (host/belief/png.node.ts, heatmapPng of heatmapPng.node.ts): read back with an independent decoder
// (test/belief/decodePng.ts: its own CRC, inflate, all row filters), the files are valid PNGs of
// the stated size whose pixels are the ones drawn.
import { describe, expect, it } from 'vitest';
import { Canvas, crc32, textWidth } from '../../host/belief/png.node';
import {
  heatmapPng,
  squareColour,
  PNG_WIDTH,
  PNG_HEIGHT,
  PNG_LEFT,
  PNG_TOP,
  PNG_SQUARE,
} from '../../host/belief/heatmapPng.node';
import { decodePng } from './decodePng';

/** Top left pixel of square (file, rank) on the heatmap image, clear of the text in it. */
const corner = (file: number, rank: number): [number, number] => [
  PNG_LEFT + file * PNG_SQUARE + 2,
  PNG_TOP + (7 - rank) * PNG_SQUARE + 2,
];

describe('PNG encoder', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789', 'latin1'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('writes what was drawn, pixel for pixel', () => {
    const canvas = new Canvas(7, 5, [10, 20, 30]);
    canvas.fill(2, 1, 3, 2, [200, 100, 0]);
    canvas.fill(6, 4, 5, 5, [1, 2, 3]); // clipped to the one pixel inside
    const png = decodePng(canvas.png({ Title: 'tiny' }));
    expect([png.width, png.height, png.bitDepth, png.colourType]).toEqual([7, 5, 8, 2]);
    expect(png.text).toEqual({ Title: 'tiny' });
    for (let y = 0; y < 5; y++) {
      for (let x = 0; x < 7; x++) {
        const expected =
          x >= 2 && x < 5 && y >= 1 && y < 3 ? [200, 100, 0] : x === 6 && y === 4 ? [1, 2, 3] : [10, 20, 30];
        expect(png.rgb(x, y), `${x},${y}`).toEqual(expected);
      }
    }
  });

  it('draws glyphs inside their measured width', () => {
    const canvas = new Canvas(40, 9, [255, 255, 255]);
    canvas.text(1, 1, '80%', [0, 0, 0]); // glyphs inked in their first and last columns
    const png = decodePng(canvas.png());
    const inked = [];
    for (let x = 0; x < 40; x++) for (let y = 0; y < 9; y++) if (png.rgb(x, y)[0] === 0) inked.push(x);
    expect(Math.min(...inked)).toBe(1);
    expect(Math.max(...inked)).toBe(1 + textWidth('80%') - 1);
    expect(() => canvas.text(0, 0, 'z', [0, 0, 0])).toThrow(/no glyph/);
  });
});

describe('heatmap PNG', () => {
  // rank 8 full (every position has a piece there), rank 7 half, rank 5 one in 1,000, the rest empty
  const total = 1000;
  const counts = Array.from({ length: 64 }, (_, sq) =>
    sq >= 56 ? total : sq >= 48 ? total / 2 : sq >= 32 && sq < 40 ? 1 : 0,
  );
  const png = decodePng(heatmapPng({ color: 1, total, counts }, "White's belief"));

  it('is an 8-bit RGB image of the stated size, titled', () => {
    expect([png.width, png.height, png.bitDepth, png.colourType]).toEqual([PNG_WIDTH, PNG_HEIGHT, 8, 2]);
    expect(png.text.Title).toBe("White's belief");
    expect(png.text.Description).toBe('Black pieces per square in 1000 positions');
  });

  it("colours each square by its count on the board's light and dark squares", () => {
    for (let sq = 0; sq < 64; sq++) {
      const file = sq % 8;
      const rank = sq >> 3;
      expect(png.rgb(...corner(file, rank)), `square ${sq}`).toEqual(squareColour(file, rank, counts[sq] / total));
    }
    // a full square differs from an empty one of the same base colour, and the half-full one lies between
    const full = png.rgb(...corner(0, 7)); // a8, light
    const half = png.rgb(...corner(1, 6)); // b7, light
    const empty = png.rgb(...corner(1, 2)); // b3, light
    expect(full).not.toEqual(empty);
    for (let i = 0; i < 3; i++) expect((half[i] - full[i]) * (half[i] - empty[i])).toBeLessThanOrEqual(0);
    expect(png.rgb(...corner(0, 0))).not.toEqual(empty); // a1 is dark
  });

  it('writes the count in every square', () => {
    for (let sq = 0; sq < 64; sq++) {
      const [x0, y0] = corner(sq % 8, sq >> 3);
      const base = png.rgb(x0, y0);
      let differing = 0;
      for (let y = y0; y < y0 + PNG_SQUARE - 4; y++)
        for (let x = x0; x < x0 + PNG_SQUARE - 4; x++) if (png.rgb(x, y).some((v, i) => v !== base[i])) differing++;
      expect(differing, `square ${sq}`).toBeGreaterThan(20);
    }
  });
});
