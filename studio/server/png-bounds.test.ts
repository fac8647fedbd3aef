import { describe, expect, it } from 'vitest';
import { plainPng } from '../testing/png.ts';
import { maxInflatedBytes, pngDataFitsItsSize } from './png-bounds.ts';

/** A PNG of `width` × `height` RGB pixels whose picture data is `rows`, as given. */
const png = (width: number, height: number, rows: Buffer, interlaced = false) => plainPng(width, height, { rows, interlaced });

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
