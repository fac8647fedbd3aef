// The picture library: every picture under public/images/ for the studio's picker, and uploads.
//
// An upload is checked from its bytes, never its name or Content-Type: PNG, JPEG or WebP only. SVG is
// refused, because an SVG is a document that can carry script. Pictures are stored web-ready under
// public/images/uploads/: PNG and JPEG are decoded, scaled down to at most 1600 px wide and encoded
// again (which also drops hidden metadata such as a phone's GPS position); WebP is kept as sent
// when it is at most 1600 px wide, since no WebP encoder runs here without native code, but with only
// the chunks that draw the picture (any other chunk can hold metadata); a wider WebP is refused with
// what to do. The build reads each stored file's width and height (content-model/load/image-size.ts).
//
// Decoding runs in a worker thread (image-worker.ts), one picture at a time: a large picture takes
// seconds of CPU and hundreds of MB, and the studio must keep answering everyone else meanwhile.
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { rasterSize, readImageSize } from '../../content-model/load/image-size.ts';
import type { StoredImage } from '../api-types.ts';
import { createGate } from '../../back-office/concurrency.ts';
import type { ImageJob, ImageJobResult } from './image-worker.ts';

export type { StoredImage };

/** The largest picture taken, in bytes: the body limit of the upload route and the check on what it stores. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The same limit as people read it, for messages ("10 MB"). */
export const MAX_UPLOAD_TEXT = `${MAX_UPLOAD_BYTES / 1024 / 1024} MB`;
export const MAX_WIDTH = 1600;
/**
 * Pictures larger than this are refused before anything is decoded: a small file can declare a huge
 * canvas, and decoding costs 4 bytes a pixel. The site shows pictures at most 1600 px wide, so this
 * still takes a 24-megapixel camera photo (6016×4016) or a 12-megapixel phone photo as it is.
 */
const MAX_SIDE = 8192;
const MAX_PIXELS = 25_000_000;
const JPEG_QUALITY = 82;
/** Pictures being decoded or waiting for it; more are refused at once rather than left waiting for minutes. */
const MAX_QUEUED = 4;
const WORKER_TIME_LIMIT_MS = 20_000;
/**
 * The worker's JavaScript heap, so a picture cannot take all the studio's memory. The JPEG decoder
 * keeps every 8×8 block of the picture on this heap: with less than 512 MB a 24-megapixel JPEG takes
 * twice as long, most of it collecting garbage. The pixels themselves are outside it, bounded by
 * MAX_PIXELS.
 */
const WORKER_HEAP_MB = 512;
const WORKER_SCRIPT = new URL('./image-worker.ts', import.meta.url);

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.svg', '.gif']);

type Format = 'png' | 'jpeg' | 'webp';

const DAMAGED = 'This picture is damaged and cannot be read.';
const EXPORT_SMALLER = 'Export it smaller, for example 3,200 pixels wide, and upload it again.';

export class ImageError extends Error {
  override name = 'ImageError';
  readonly status: 400 | 413 | 415 | 503;

  constructor(message: string, status: 400 | 413 | 415 | 503) {
    super(message);
    this.status = status;
  }
}

export type ImageLibraryOptions = {
  publicDir: string;
  /** The worker that decodes pictures, and how long it may take; tests swap them. */
  workerScript?: URL;
  workerTimeLimitMs?: number;
};

export type ImageLibrary = ReturnType<typeof createImageLibrary>;

export function createImageLibrary({
  publicDir,
  workerScript = WORKER_SCRIPT,
  workerTimeLimitMs = WORKER_TIME_LIMIT_MS,
}: ImageLibraryOptions) {
  const imagesDir = path.join(publicDir, 'images');
  const uploadsDir = path.join(imagesDir, 'uploads');
  // One picture decoding at a time; the others wait their turn, up to MAX_QUEUED in all.
  const decoding = createGate({ running: 1, waiting: MAX_QUEUED - 1 });

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
      throw new ImageError(`This picture is larger than ${MAX_UPLOAD_TEXT}: make it smaller and upload it again.`, 413);
    const format = detectFormat(bytes);
    if (format === 'svg')
      throw new ImageError('SVG pictures are refused: an SVG can carry script. Export it as PNG or WebP and upload that.', 415);
    if (!format) throw new ImageError('This file is not a PNG, JPEG or WebP picture.', 415);
    const declared = rasterSize(bytes);
    if (!declared || declared.width === 0 || declared.height === 0) throw new ImageError(DAMAGED, 400);
    const { width, height } = declared;
    if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
      const count = (n: number) => n.toLocaleString('en-US');
      throw new ImageError(
        `This picture is ${count(width)} × ${count(height)} pixels: too large for the studio to process (at most ` +
          `${count(MAX_SIDE)} pixels on a side and ${count(MAX_PIXELS / 1_000_000)} million pixels in all). The site shows ` +
          `pictures at most ${count(MAX_WIDTH)} pixels wide, so export it smaller, for example 3,200 pixels wide, and upload it again.`,
        400,
      );
    }

    let output: Buffer;
    if (format === 'webp') {
      if (width > MAX_WIDTH) {
        throw new ImageError(
          `This WebP picture is ${width} px wide; the studio can only scale PNG and JPEG. Export it at most ${MAX_WIDTH} px wide, or upload a PNG or JPEG.`,
          400,
        );
      }
      output = keepDrawingChunks(bytes);
    } else {
      const job: ImageJob = { bytes, format, maxWidth: MAX_WIDTH, jpegQuality: JPEG_QUALITY };
      const decoded = await decoding.run(() => runWorker(workerScript, job, workerTimeLimitMs));
      // Refused at once rather than left waiting for minutes: the editor hears "try again".
      if (!decoded) throw new ImageError('The studio is busy with other pictures: try again in a moment.', 503);
      output = decoded;
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
    if (!size) throw new ImageError(DAMAGED, 400);
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

/**
 * Decodes, scales and encodes a PNG or JPEG in a worker thread of its own, ended as soon as it answers,
 * fails or runs out of time: a picture that crashes it, exhausts its memory or never finishes costs
 * the upload, never the studio.
 */
function runWorker(script: URL, job: ImageJob, timeLimitMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let settled = false;
    const settle = (outcome: Buffer | ImageError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The next picture starts only once this worker has really ended.
      void worker.terminate().then(() => (outcome instanceof ImageError ? reject(outcome) : resolve(outcome)));
    };
    const timer = setTimeout(() => settle(new ImageError(`This picture took too long to process. ${EXPORT_SMALLER}`, 400)), timeLimitMs);
    const failed = () => settle(new ImageError(`The studio could not process this picture. ${EXPORT_SMALLER}`, 400));
    worker.on('message', (result: ImageJobResult) => settle(result.ok ? Buffer.from(result.output) : new ImageError(DAMAGED, 400)));
    worker.on('error', failed);
    worker.on('exit', failed);
  });
}

/**
 * The chunks a WebP needs to be drawn: the bitstreams (VP8, VP8L), the extended header (VP8X), alpha
 * (ALPH) and animation (ANIM, ANMF). Every other chunk can carry hidden data: EXIF and XMP a GPS
 * position, a made-up chunk anything, and a colour profile (ICCP) free text such as the camera or its
 * owner. Without a profile, browsers show the picture as sRGB, as the web's pictures nearly all are.
 */
const WEBP_DRAWING_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);
/** An animation frame (ANMF) holds a 16-byte frame header, then its own chunks: alpha and bitstream. */
const WEBP_FRAME_CHUNKS = new Set(['VP8 ', 'VP8L', 'ALPH']);
const ANMF_HEADER_BYTES = 16;
/** VP8X flags kept as sent: alpha (bit 4) and animation (bit 1); those of the dropped chunks are cleared. */
const VP8X_KEPT_FLAGS = 0b0001_0010;

/** A WebP with only the chunks that draw it, and an extended header whose flags say so. */
function keepDrawingChunks(bytes: Buffer): Buffer {
  const riffEnd = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  const chunks = webpChunks(bytes, 12, riffEnd, WEBP_DRAWING_CHUNKS).map(({ id, data }) => {
    if (id === 'ANMF')
      data = Buffer.concat([
        data.subarray(0, ANMF_HEADER_BYTES),
        ...webpChunks(data, ANMF_HEADER_BYTES, data.length, WEBP_FRAME_CHUNKS).map(encodeChunk),
      ]);
    return { id, data };
  });
  const vp8x = chunks.find((chunk) => chunk.id === 'VP8X');
  if (vp8x) vp8x.data[0] = vp8x.data[0]! & VP8X_KEPT_FLAGS;
  const body = Buffer.concat(chunks.map(encodeChunk));
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'ascii');
  return Buffer.concat([header, body]);
}

/** The chunks between `start` and `end` whose id is in `keep`, each a copy of its data. */
function webpChunks(bytes: Buffer, start: number, end: number, keep: ReadonlySet<string>): { id: string; data: Buffer }[] {
  const found: { id: string; data: Buffer }[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (offset + 8 + size > end) throw new ImageError(DAMAGED, 400);
    if (keep.has(id)) found.push({ id, data: Buffer.from(bytes.subarray(offset + 8, offset + 8 + size)) });
    offset += 8 + size + (size % 2);
  }
  return found;
}

/** A chunk as a RIFF file holds it: id, size, data, and a padding byte when the size is odd. */
function encodeChunk({ id, data }: { id: string; data: Buffer }): Buffer {
  const chunk = Buffer.alloc(8 + data.length + (data.length % 2));
  chunk.write(id, 0, 'ascii');
  chunk.writeUInt32LE(data.length, 4);
  data.copy(chunk, 8);
  return chunk;
}

function safeName(original: string): string {
  const stem = path.basename(original).replace(/\.[^.]*$/, '');
  // Every run of other characters (dashes included) becomes one dash first, so trimming the ends
  // looks at one dash, not at a long run from every position.
  const name = stem
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .replace(/-$/, '');
  return name || 'image';
}
