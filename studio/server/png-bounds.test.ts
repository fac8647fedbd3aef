import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { maxInflatedBytes, pngDataFitsItsSize } from './png-bounds.ts';

/** A PNG of `width` × `height` RGB pixels whose picture data is `rows`, as given. */
function png(width: number, height: number, rows: Buffer, interlaced = false): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  header[12] = interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('pngDataFitsItsSize', () => {
  it('accepts data exactly the size of its rows', () => {
    expect(pngDataFitsItsSize(png(10, 4, Buffer.alloc(4 * (1 + 30))))).toBe(true);
  });

  it('accepts an interlaced picture, whose passes add rows of their own', () => {
    expect(pngDataFitsItsSize(png(1, 1, Buffer.from([0, 1, 2, 3]), true))).toBe(true);
    expect(pngDataFitsItsSize(png(9, 9, Buffer.alloc(maxInflatedBytes(9, 9, 24)), true))).toBe(true);
  });

  it('refuses data that inflates past what the header allows', () => {
    expect(pngDataFitsItsSize(png(1, 1, Buffer.alloc(1024 * 1024), true))).toBe(false);
    expect(pngDataFitsItsSize(png(10, 4, Buffer.alloc(maxInflatedBytes(10, 4, 24) + 1)))).toBe(false);
  });

  it('refuses what is not a whole PNG', () => {
    const whole = png(2, 2, Buffer.alloc(2 * 7));
    expect(pngDataFitsItsSize(whole.subarray(0, 40))).toBe(false);
    expect(pngDataFitsItsSize(Buffer.from('not a picture at all, but long enough to read a header'))).toBe(false);
  });
});
