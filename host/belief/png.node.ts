// A minimal PNG encoder and raster canvas, on node:zlib alone: 8-bit RGB (colour type 2), one IDAT
// chunk, filter type 0 on every row, and optional tEXt chunks. Enough for the belief heatmap image.
// Also the few glyphs it writes (digits, a–h, %, <, >), as a 5×7 bitmap font.
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as PNG chunks use it). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An RGB image: `pixels` holds width × height × 3 bytes, row by row from the top. */
export class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.fill(0, 0, width, height, background);
  }

  /** Fills the rectangle [x, x + w) × [y, y + h) (rounded to whole pixels), clipped to the canvas. */
  fill(x: number, y: number, w: number, h: number, [r, g, b]: Rgb): void {
    x = Math.round(x);
    y = Math.round(y);
    w = Math.round(w);
    h = Math.round(h);
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++) {
      for (let col = Math.max(0, x); col < Math.min(this.width, x + w); col++) {
        const i = (row * this.width + col) * 3;
        this.pixels[i] = r;
        this.pixels[i + 1] = g;
        this.pixels[i + 2] = b;
      }
    }
  }

  /** Writes `text` (glyphs of FONT) with its top left corner at (x, y), each font pixel `scale` × `scale`. */
  text(x: number, y: number, text: string, colour: Rgb, scale = 1): void {
    for (const ch of text) {
      const glyph = FONT[ch];
      if (glyph === undefined) throw new Error(`no glyph for '${ch}'`);
      glyph.forEach((row, gy) => {
        for (let gx = 0; gx < GLYPH_WIDTH; gx++)
          if (row[gx] === '#') this.fill(x + gx * scale, y + gy * scale, scale, scale, colour);
      });
      x += (GLYPH_WIDTH + 1) * scale;
    }
  }

  /** Writes `text` centred on x, its top at y. */
  centredText(x: number, y: number, text: string, colour: Rgb, scale = 1): void {
    this.text(Math.round(x - textWidth(text, scale) / 2), y, text, colour, scale);
  }

  /** The PNG file: signature, IHDR, tEXt chunks (keyword → Latin-1 text), IDAT, IEND. */
  png(text: Record<string, string> = {}): Buffer {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bit depth
    header[9] = 2; // colour type: RGB
    header[10] = 0; // compression: deflate
    header[11] = 0; // filter method 0
    header[12] = 0; // no interlace
    const stride = this.width * 3;
    const raw = Buffer.alloc((stride + 1) * this.height);
    for (let row = 0; row < this.height; row++) {
      raw[row * (stride + 1)] = 0; // filter type None
      Buffer.from(this.pixels.buffer, this.pixels.byteOffset + row * stride, stride).copy(raw, row * (stride + 1) + 1);
    }
    const texts = Object.entries(text).map(([keyword, value]) =>
      chunk('tEXt', Buffer.from(`${keyword}\0${value}`, 'latin1')),
    );
    return Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      ...texts,
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', new Uint8Array(0)),
    ]);
  }
}

export type Rgb = readonly [number, number, number];

const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;

/** Width in pixels of `text` written at `scale` (one blank column between glyphs). */
export function textWidth(text: string, scale = 1): number {
  return text.length === 0 ? 0 : (text.length * (GLYPH_WIDTH + 1) - 1) * scale;
}

const FONT: Record<string, string[]> = {
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['#####', '...#.', '..#..', '...#.', '....#', '#...#', '.###.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  a: ['.....', '.....', '.###.', '....#', '.####', '#...#', '.####'],
  b: ['#....', '#....', '#.##.', '##..#', '#...#', '#...#', '####.'],
  c: ['.....', '.....', '.###.', '#....', '#....', '#...#', '.###.'],
  d: ['....#', '....#', '.##.#', '#..##', '#...#', '#...#', '.####'],
  e: ['.....', '.....', '.###.', '#...#', '#####', '#....', '.###.'],
  f: ['..##.', '.#..#', '.#...', '###..', '.#...', '.#...', '.#...'],
  g: ['.....', '.####', '#...#', '#...#', '.####', '....#', '.###.'],
  h: ['#....', '#....', '#.##.', '##..#', '#...#', '#...#', '#...#'],
  '%': ['##...', '##..#', '...#.', '..#..', '.#...', '#..##', '...##'],
  '<': ['...#.', '..#..', '.#...', '#....', '.#...', '..#..', '...#.'],
  '>': ['.#...', '..#..', '...#.', '....#', '...#.', '..#..', '.#...'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};
