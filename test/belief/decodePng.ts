// A small PNG reader for the tests, independent of host/belief/png.node.ts (its own CRC and chunk
// walk): checks the signature and every chunk's CRC, reads IHDR and tEXt, inflates the IDAT
// stream and undoes the row filters (all five types), for 8-bit RGB and RGBA images.
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  text: Record<string, string>;
  /** Bytes per pixel (3 RGB, 4 RGBA). */
  channels: number;
  /** Unfiltered pixel bytes, row by row. */
  pixels: Uint8Array;
  /** The colour at (x, y), first three channels. */
  rgb(x: number, y: number): [number, number, number];
}

function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (c ^ 0xffffffff) >>> 0;
}

export function decodePng(file: Buffer): DecodedPng {
  if (!file.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])))
    throw new Error('not a PNG signature');
  let at = 8;
  let ihdr: Buffer | undefined;
  const idat: Buffer[] = [];
  const text: Record<string, string> = {};
  let ended = false;
  while (at < file.length) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    if (crc(file.subarray(at + 4, at + 8 + length)) !== file.readUInt32BE(at + 8 + length))
      throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') ihdr = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'tEXt') {
      const nul = data.indexOf(0);
      text[data.toString('latin1', 0, nul)] = data.toString('latin1', nul + 1);
    } else if (type === 'IEND') {
      ended = true;
      break;
    }
    at += 12 + length;
  }
  if (!ihdr || ihdr.length !== 13) throw new Error('no IHDR');
  if (!ended) throw new Error('no IEND');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const bitDepth = ihdr[8];
  const colourType = ihdr[9];
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || ihdr[12] !== 0)
    throw new Error('only 8-bit non-interlaced RGB(A) is read here');
  const channels = colourType === 2 ? 3 : 4;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== (stride + 1) * height)
    throw new Error(`IDAT holds ${raw.length} bytes, expected ${(stride + 1) * height}`);
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= channels ? pixels[y * stride + i - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? pixels[(y - 1) * stride + i - channels] : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      if (predictor === undefined) throw new Error(`bad filter type ${filter} on row ${y}`);
      pixels[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    bitDepth,
    colourType,
    text,
    channels,
    pixels,
    rgb: (x, y) => {
      const i = (y * width + x) * channels;
      return [pixels[i], pixels[i + 1], pixels[i + 2]];
    },
  };
}
