// Reads a picture's intrinsic size so every <img> gets width and height (no layout shift), from
// the file's own header: PNG, JPEG, WebP and SVG (the studio stores uploads as PNG, JPEG or WebP).
import { readFileSync } from 'node:fs';

export type ImageSize = { width: number; height: number };

const PNG_SIGNATURE = '89504e470d0a1a0a';

export function readImageSize(file: string): ImageSize | undefined {
  const bytes = readFileSync(file);
  if (file.endsWith('.svg')) return svgSize(bytes.toString('utf8'));
  return rasterSize(bytes);
}

/** The size a PNG, JPEG or WebP header declares; undefined for anything else or a damaged header. */
export function rasterSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).toString('hex') === PNG_SIGNATURE) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (bytes.length >= 25 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') return webpSize(bytes);
  return undefined;
}

/** JPEG: the frame header (SOF0–SOF15, except DHT, JPG and DAC) holds height then width. */
function jpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString('ascii', 12, 16);
  if (chunk !== 'VP8L' && bytes.length < 30) return undefined;
  if (chunk === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

function svgSize(svg: string): ImageSize | undefined {
  const root = svg.match(/<svg\b[^>]*>/)?.[0] ?? '';
  const attr = (name: string) => root.match(new RegExp(`\\s${name}="([0-9.]+)(px)?"`))?.[1];
  const width = Number(attr('width'));
  const height = Number(attr('height'));
  if (width > 0 && height > 0) return { width: Math.round(width), height: Math.round(height) };
  const viewBox = root.match(/viewBox="[-0-9.]+[ ,]+[-0-9.]+[ ,]+([0-9.]+)[ ,]+([0-9.]+)"/);
  if (viewBox) return { width: Math.round(Number(viewBox[1])), height: Math.round(Number(viewBox[2])) };
  return undefined;
}
