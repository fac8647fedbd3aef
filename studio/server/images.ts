// The picture library: every picture under public/images/ for the studio's picker, and uploads.
//
// An upload is checked from its bytes, never its name or Content-Type: PNG, JPEG or WebP only. SVG is
// refused, because an SVG is a document that can carry script. Pictures are stored web-ready under
// public/images/uploads/: PNG and JPEG are decoded, scaled down to at most 1600 px wide and encoded
// again (which also drops hidden metadata such as a phone's GPS position); WebP is kept as sent
// (its EXIF and XMP chunks removed) when it is at most 1600 px wide, since no WebP encoder runs here
// without native code; a wider WebP is refused with what to do. The build reads each stored file's
// width and height (scripts/content/image-size.ts).
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Jimp } from 'jimp';
import { rasterSize, readImageSize } from '../../scripts/content/image-size.ts';
import type { StoredImage } from '../core/api-types.ts';

export type { StoredImage };

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_WIDTH = 1600;
/** Pictures larger than this are not decoded at all: a small file can declare a huge canvas. */
const MAX_SIDE = 12_000;
const MAX_PIXELS = 40_000_000;
const JPEG_QUALITY = 82;

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.svg', '.gif']);

type Format = 'png' | 'jpeg' | 'webp';

export class ImageError extends Error {
  override name = 'ImageError';
  readonly status: 400 | 413 | 415;

  constructor(message: string, status: 400 | 413 | 415) {
    super(message);
    this.status = status;
  }
}

export function createImageLibrary({ publicDir }: { publicDir: string }) {
  const imagesDir = path.join(publicDir, 'images');
  const uploadsDir = path.join(imagesDir, 'uploads');

  function list(): StoredImage[] {
    if (!existsSync(imagesDir)) return [];
    const found: (StoredImage & { modified: number })[] = [];
    for (const entry of readdirSync(imagesDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const relative = path.relative(imagesDir, file).split(path.sep).join('/');
      if (relative.split('/').some((part) => part.startsWith('.')) || !IMAGE_EXTENSIONS.has(path.extname(file).toLowerCase())) continue;
      const size = readImageSize(file);
      const stats = statSync(file);
      found.push({
        src: `/images/${relative}`,
        width: size?.width ?? 0,
        height: size?.height ?? 0,
        bytes: stats.size,
        modified: stats.mtimeMs,
      });
    }
    return found.sort((a, b) => b.modified - a.modified || a.src.localeCompare(b.src)).map(({ modified: _modified, ...image }) => image);
  }

  async function store(bytes: Buffer, originalName: string): Promise<StoredImage> {
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new ImageError('The file is empty.', 400);
    if (bytes.length > MAX_UPLOAD_BYTES)
      throw new ImageError('This picture is larger than 10 MB: make it smaller and upload it again.', 413);
    const format = detectFormat(bytes);
    if (format === 'svg')
      throw new ImageError('SVG pictures are refused: an SVG can carry script. Export it as PNG or WebP and upload that.', 415);
    if (!format) throw new ImageError('This file is not a PNG, JPEG or WebP picture.', 415);
    const declared = rasterSize(bytes);
    if (!declared || declared.width === 0 || declared.height === 0)
      throw new ImageError('This picture is damaged and cannot be read.', 400);
    if (declared.width > MAX_SIDE || declared.height > MAX_SIDE || declared.width * declared.height > MAX_PIXELS) {
      throw new ImageError(`This picture is too large to process (${declared.width}×${declared.height} pixels).`, 400);
    }

    let output: Buffer;
    if (format === 'webp') {
      if (declared.width > MAX_WIDTH) {
        throw new ImageError(
          `This WebP picture is ${declared.width} px wide; the studio can only scale PNG and JPEG. Export it at most ${MAX_WIDTH} px wide, or upload a PNG or JPEG.`,
          400,
        );
      }
      output = stripWebpMetadata(bytes);
    } else {
      let image;
      try {
        image = await Jimp.read(bytes);
      } catch {
        throw new ImageError('This picture is damaged and cannot be read.', 400);
      }
      if (image.width > MAX_WIDTH) image.resize({ w: MAX_WIDTH });
      output = format === 'png' ? await image.getBuffer('image/png') : await image.getBuffer('image/jpeg', { quality: JPEG_QUALITY });
    }

    mkdirSync(uploadsDir, { recursive: true });
    const extension = format === 'jpeg' ? '.jpg' : `.${format}`;
    const base = safeName(originalName);
    let name = `${base}${extension}`;
    for (let n = 2; existsSync(path.join(uploadsDir, name)); n++) name = `${base}-${n}${extension}`;
    const target = path.join(uploadsDir, name);
    const temporary = path.join(uploadsDir, `.${randomUUID()}.tmp`);
    writeFileSync(temporary, output, { flag: 'wx' });
    renameSync(temporary, target);
    const size = readImageSize(target);
    if (!size) throw new ImageError('This picture is damaged and cannot be read.', 400);
    return { src: `/images/uploads/${name}`, width: size.width, height: size.height, bytes: output.length };
  }

  /** The file a URL path below /images/ names, relative to public/images, when it is a picture that exists there. */
  function resolve(relative: string): string | undefined {
    let decoded: string;
    try {
      decoded = decodeURIComponent(relative);
    } catch {
      return undefined;
    }
    const parts = decoded.split('/');
    if (
      parts.some(
        (part) => part === '' || part === '.' || part === '..' || part.startsWith('.') || part.includes('\\') || part.includes('\0'),
      )
    )
      return undefined;
    if (!IMAGE_EXTENSIONS.has(path.extname(decoded).toLowerCase())) return undefined;
    const file = path.join(imagesDir, ...parts);
    try {
      if (!lstatSync(file).isFile()) return undefined;
      const real = realpathSync(file);
      if (!real.startsWith(realpathSync(imagesDir) + path.sep)) return undefined;
    } catch {
      return undefined;
    }
    return parts.join('/');
  }

  return { list, store, resolve };
}

function detectFormat(bytes: Buffer): Format | 'svg' | undefined {
  if (bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') return 'webp';
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<?xml') || head.startsWith('<svg') || head.includes('<svg')) return 'svg';
  return undefined;
}

/** A WebP without its EXIF and XMP chunks (and the extended header's flags saying so). */
function stripWebpMetadata(bytes: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    if (end > bytes.length) throw new ImageError('This picture is damaged and cannot be read.', 400);
    if (id !== 'EXIF' && id !== 'XMP ') {
      const chunk = Buffer.from(bytes.subarray(offset, end));
      // VP8X flags: bit 3 EXIF, bit 2 XMP.
      if (id === 'VP8X') chunk[8] = chunk[8]! & ~0b1100;
      chunks.push(chunk);
    }
    offset = end;
  }
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'ascii');
  return Buffer.concat([header, body]);
}

function safeName(original: string): string {
  const stem = path.basename(original).replace(/\.[^.]*$/, '');
  const name = stem
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return name || 'image';
}
