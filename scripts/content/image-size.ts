// Reads a picture's intrinsic size so every <img> gets width and height (no layout shift).
import { readFileSync } from 'node:fs';

export type ImageSize = { width: number; height: number };

const PNG_SIGNATURE = '89504e470d0a1a0a';

export function readImageSize(file: string): ImageSize | undefined {
  const bytes = readFileSync(file);
  if (file.endsWith('.svg')) return svgSize(bytes.toString('utf8'));
  if (bytes.subarray(0, 8).toString('hex') === PNG_SIGNATURE) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
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
