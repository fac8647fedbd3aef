// A PNG's compressed picture data must inflate to no more than its header allows. The decoder the
// studio uses inflates every chunk of data in one piece, with no limit, outside the JavaScript heap
// the image worker is capped by: a 3 MB upload that claims to be one pixel could otherwise inflate to
// gigabytes. Inflating it first with a ceiling costs at most what an honest picture of that size
// would, and runs in the image worker, never on the thread that answers requests.
import { inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour type → samples per pixel (grey, –, RGB, palette, grey + alpha, –, RGBA). */
const SAMPLES: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7_PASSES = 7;

/**
 * The most bytes the picture data of a `width` × `height` PNG with `bitsPerPixel` can inflate to:
 * every row starts with a filter byte and ends on a whole byte. An interlaced picture splits into
 * seven passes with rows of their own, so it may add a filter byte and a partial byte per row of
 * each pass; the bound allows that for all seven.
 */
export function maxInflatedBytes(width: number, height: number, bitsPerPixel: number): number {
  const rows = height * (1 + Math.ceil((width * bitsPerPixel) / 8));
  return rows + ADAM7_PASSES * height * 2 + 64;
}

/** True when `bytes` is a PNG whose picture data inflates within what its header allows. */
export function pngDataFitsItsSize(bytes: Uint8Array): boolean {
  const png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') return false;
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const bitDepth = png[24]!;
  const samples = SAMPLES[png[25]!];
  if (samples === undefined || ![1, 2, 4, 8, 16].includes(bitDepth)) return false;
  const data: Buffer[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > png.length) return false;
    if (type === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  if (data.length === 0) return false;
  try {
    inflateSync(Buffer.concat(data), { maxOutputLength: maxInflatedBytes(width, height, samples * bitDepth) });
    return true;
  } catch {
    return false;
  }
}
