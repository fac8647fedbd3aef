import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import { Jimp } from 'jimp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plainPng } from '../testing/png.ts';
import { createImageLibrary, ImageError } from './images.ts';

/** Every worker thread the library starts, and whether it has ended. */
const workers = vi.hoisted(() => ({ started: 0, ended: 0 }));
vi.mock('node:worker_threads', async (importOriginal) => {
  const original = await importOriginal<typeof WorkerThreads>();
  class CountedWorker extends original.Worker {
    constructor(...args: ConstructorParameters<typeof original.Worker>) {
      super(...args);
      workers.started++;
      this.once('exit', () => workers.ended++);
    }
  }
  return { ...original, Worker: CountedWorker };
});

let publicDir: string;
let library: ReturnType<typeof createImageLibrary>;
beforeEach(() => {
  publicDir = mkdtempSync(path.join(tmpdir(), 'studio-images-'));
  mkdirSync(path.join(publicDir, 'images'), { recursive: true });
  library = createImageLibrary({ publicDir });
  workers.started = 0;
  workers.ended = 0;
});
afterEach(() => rmSync(publicDir, { recursive: true, force: true }));

async function picture(width: number, height: number, mime: 'image/png' | 'image/jpeg'): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0x3366ccff });
  return mime === 'image/png' ? image.getBuffer('image/png') : image.getBuffer('image/jpeg');
}

/** A PNG of one colour, made directly (quick even at millions of pixels). */
/** A WebP file holding these chunks. */
function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'ascii');
  return Buffer.concat([header, body]);
}

function webpChunk(id: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  return Buffer.concat([Buffer.from(id, 'ascii'), size, data, Buffer.alloc(data.length % 2)]);
}

/** A minimal lossless WebP (VP8L) bitstream chunk declaring `width`×`height`, as a real encoder writes it. */
function vp8l(width: number, height: number): Buffer {
  const data = Buffer.alloc(5);
  data[0] = 0x2f;
  data.writeUInt32LE((width - 1) | ((height - 1) << 14), 1);
  return webpChunk('VP8L', data);
}

function webp(width: number, height: number, extra: Buffer[] = []): Buffer {
  return riff([vp8l(width, height), ...extra]);
}

/** The extended header: flags, then the canvas size. */
function vp8x(flags: number, width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data[0] = flags;
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return webpChunk('VP8X', data);
}

/** The ids of the chunks from `start` to the end of `bytes`. */
function chunkIds(bytes: Buffer, start = 12): string[] {
  const ids: string[] = [];
  for (let offset = start; offset + 8 <= bytes.length;) {
    ids.push(bytes.toString('ascii', offset, offset + 4));
    const size = bytes.readUInt32LE(offset + 4);
    offset += 8 + size + (size % 2);
  }
  return ids;
}

async function refusal(bytes: Buffer, name = 'photo.png'): Promise<ImageError> {
  try {
    await library.store(bytes, name);
  } catch (error) {
    if (error instanceof ImageError) return error;
    throw error;
  }
  throw new Error('the upload was accepted');
}

describe('uploads', () => {
  it('stores PNG, JPEG and WebP with a name from the file and its size; the same name again gets -2', async () => {
    const png = await library.store(await picture(640, 480, 'image/png'), 'Team Photo (2024).PNG');
    expect(png).toMatchObject({ src: '/images/uploads/team-photo-2024.png', width: 640, height: 480 });
    const again = await library.store(await picture(10, 10, 'image/png'), 'Team Photo (2024).PNG');
    expect(again.src).toBe('/images/uploads/team-photo-2024-2.png');
    expect((await library.store(await picture(300, 200, 'image/jpeg'), 'office.jpeg')).src).toBe('/images/uploads/office.jpg');
    expect(await library.store(webp(800, 600), 'hero.webp')).toMatchObject({ src: '/images/uploads/hero.webp', width: 800, height: 600 });
  });

  it('scales a picture wider than 1600 px down to 1600 px, keeping its proportions', async () => {
    expect(await library.store(await picture(2400, 1200, 'image/png'), 'wide.png')).toMatchObject({ width: 1600, height: 800 });
  });

  it('drops the EXIF block (GPS positions) of a JPEG', async () => {
    const jpeg = await picture(64, 64, 'image/jpeg');
    const exif = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x10]), Buffer.from('Exif\0\0GPS-DATA')]);
    const withExif = Buffer.concat([jpeg.subarray(0, 2), exif, jpeg.subarray(2)]);
    const stored = await library.store(withExif, 'camera.jpg');
    const written = readFileSync(path.join(publicDir, stored.src));
    expect(written.includes(Buffer.from('Exif\0\0'))).toBe(false);
  });

  it('drops the EXIF chunk of a WebP', async () => {
    const exif = Buffer.concat([Buffer.from('EXIF'), Buffer.from([4, 0, 0, 0]), Buffer.from('GPS!')]);
    const stored = await library.store(webp(100, 100, [exif]), 'phone.webp');
    expect(readFileSync(path.join(publicDir, stored.src)).includes(Buffer.from('GPS!'))).toBe(false);
  });

  it('refuses an SVG with a script, whatever its name', async () => {
    const error = await refusal(
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'photo.png',
    );
    expect(error.status).toBe(415);
    expect(error.message).toBe('SVG pictures are refused: an SVG can carry script. Export it as PNG or WebP and upload that.');
  });

  it.each([
    ['a text file named .png', Buffer.from('hello, this is not a picture'), 415, 'This file is not a PNG, JPEG or WebP picture.'],
    ['an empty file', Buffer.alloc(0), 400, 'The file is empty.'],
    ['a file over 10 MB', Buffer.alloc(11 * 1024 * 1024), 413, 'This picture is larger than 10 MB: make it smaller and upload it again.'],
  ])('refuses %s', async (_name, bytes, status, message) => {
    const error = await refusal(bytes);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('names a picture from its file name in lowercase words and single dashes, however long the name', async () => {
    const png = await picture(4, 4, 'image/png');
    expect((await library.store(png, `Team ${'-'.repeat(16_000)} Photo!.png`)).src).toBe('/images/uploads/team-photo.png');
    expect((await library.store(png, '....png')).src).toBe('/images/uploads/image.png');
  });

  it('refuses a damaged PNG', async () => {
    const png = await picture(64, 64, 'image/png');
    const error = await refusal(png.subarray(0, 40));
    expect(error).toMatchObject({ status: 400, message: 'This picture is damaged and cannot be read.' });
  });

  it('refuses a PNG whose data inflates past its size (one pixel, interlaced, 256 MB of data) before inflating it, as damaged', async () => {
    const bomb = plainPng(1, 1, { interlaced: true, rows: Buffer.alloc(256 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(300_000);
    const started = performance.now();
    const error = await refusal(bomb);
    expect(error).toMatchObject({ status: 400, message: 'This picture is damaged and cannot be read.' });
    // Inflating the 256 MB takes the decoder seconds (and as much memory); the ceiling stops at once.
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('stores an honest interlaced PNG', async () => {
    // One pixel: only the first of the seven interlace passes holds a row (filter byte, then RGB).
    const png = plainPng(1, 1, { interlaced: true, rows: Buffer.from([0, 0x33, 0x66, 0xcc]) });
    const stored = await library.store(png, 'dot.png');
    expect(stored).toMatchObject({ width: 1, height: 1 });
  });

  it.each([
    [50_000, 50_000, '50,000 × 50,000'],
    [12_000, 3_333, '12,000 × 3,333'],
    [8_193, 100, '8,193 × 100'],
    [6_000, 4_200, '6,000 × 4,200'],
  ])('refuses a picture declaring %i×%i pixels before decoding it, saying what to do', async (width, height, size) => {
    const png = await picture(4, 4, 'image/png');
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(width, 16);
    bomb.writeUInt32BE(height, 20);
    const error = await refusal(bomb);
    expect(error).toMatchObject({
      status: 400,
      message:
        `This picture is ${size} pixels: too large for the studio to process (at most 8,192 pixels on a side and 25 million ` +
        'pixels in all). The site shows pictures at most 1,600 pixels wide, so export it smaller, for example 3,200 pixels wide, and upload it again.',
    });
    expect(workers.started).toBe(0);
  });

  it('lists stored pictures with their sizes, newest first', async () => {
    const first = await library.store(await picture(20, 10, 'image/png'), 'first.png');
    const second = await library.store(await picture(30, 15, 'image/png'), 'second.png');
    // Stored a minute apart, whatever the file system's clock resolution.
    utimesSync(path.join(publicDir, first.src), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    utimesSync(path.join(publicDir, second.src), new Date(), new Date());
    expect(library.list().map((image) => [image.src, image.width, image.height])).toEqual([
      ['/images/uploads/second.png', 30, 15],
      ['/images/uploads/first.png', 20, 10],
    ]);
  });
});

describe('WebP uploads keep only the chunks that draw the picture', () => {
  const gps = Buffer.from('GPS 48.8584 N 2.2945 E');

  it('drops an unknown chunk, EXIF, XMP and the colour profile (free text), and fixes the header flags', async () => {
    const iccFlag = 0b10_0000;
    const alphaFlag = 0b1_0000;
    const exifAndXmpFlags = 0b1100;
    const sent = riff([
      vp8x(iccFlag | alphaFlag | exifAndXmpFlags, 300, 200),
      webpChunk('ICCP', Buffer.from('colour profile of 1 Secret Lane')),
      webpChunk('ALPH', Buffer.from([0, 1, 2])),
      vp8l(300, 200),
      webpChunk('XYZW', gps),
      webpChunk('EXIF', Buffer.from('Exif camera')),
      webpChunk('XMP ', Buffer.from('<x:xmpmeta/>')),
    ]);
    const stored = await library.store(sent, 'phone.webp');
    expect(stored).toMatchObject({ width: 300, height: 200 });
    const written = readFileSync(path.join(publicDir, stored.src));
    expect(chunkIds(written)).toEqual(['VP8X', 'ALPH', 'VP8L']);
    expect(written.includes(gps)).toBe(false);
    expect(written.includes('Secret Lane')).toBe(false);
    expect(written[20]).toBe(alphaFlag);
    expect(written.readUInt32LE(4)).toBe(written.length - 8);
  });

  it('drops an unknown chunk inside an animation frame', async () => {
    const frameHeader = Buffer.alloc(16);
    const frame = webpChunk('ANMF', Buffer.concat([frameHeader, vp8l(40, 40), webpChunk('XYZW', gps)]));
    const animationFlag = 0b10;
    const sent = riff([vp8x(animationFlag, 40, 40), webpChunk('ANIM', Buffer.alloc(6)), frame]);
    const written = readFileSync(path.join(publicDir, (await library.store(sent, 'moving.webp')).src));
    expect(chunkIds(written)).toEqual(['VP8X', 'ANIM', 'ANMF']);
    expect(chunkIds(written.subarray(written.indexOf('ANMF') + 8 + 16), 0)).toEqual(['VP8L']);
    expect(written.includes(gps)).toBe(false);
    expect(written[20]).toBe(animationFlag);
  });
});

describe('decoding happens in a worker thread, one picture at a time', () => {
  /**
   * The longest the test's thread was kept busy between two runs of a 10 ms timer while `work` ran:
   * how long the studio would have stopped answering. Only the thread's own CPU time counts, not a
   * timer that comes late because every processor of the machine was taken by other programs.
   */
  async function longestBlock(work: () => Promise<unknown>): Promise<number> {
    let last = process.threadCpuUsage();
    let longest = 0;
    const tick = () => {
      const used = process.threadCpuUsage(last);
      longest = Math.max(longest, (used.user + used.system) / 1000);
      last = process.threadCpuUsage();
    };
    const timer = setInterval(tick, 10);
    try {
      await work();
    } finally {
      tick();
      clearInterval(timer);
    }
    return longest;
  }

  it('a 24-megapixel PNG never blocks the studio for more than 100 ms, and its worker ends', async () => {
    const big = plainPng(6000, 4000);
    let stored;
    const blocked = await longestBlock(async () => (stored = await library.store(big, 'camera.png')));
    expect(stored).toMatchObject({ width: 1600, height: 1067 });
    expect(blocked).toBeLessThan(100);
    expect(workers).toEqual({ started: 1, ended: 1 });
  }, 60_000);

  it('several uploads at once: the first four are processed one after another, the others are told to try again', async () => {
    const png = plainPng(1800, 1000);
    const results = await Promise.allSettled(Array.from({ length: 7 }, (_, i) => library.store(png, `photo-${i}.png`)));
    expect(results.map((result) => result.status)).toEqual([...Array(4).fill('fulfilled'), ...Array(3).fill('rejected')]);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({ status: 503, message: 'The studio is busy with other pictures: try again in a moment.' });
    }
    expect(workers).toEqual({ started: 4, ended: 4 });
    expect((await library.store(png, 'later.png')).width).toBe(1600);
  }, 60_000);

  const failing = {
    crashes: 'throw new Error("crash")',
    'runs out of memory': 'const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length))',
  };
  it.each(Object.entries(failing))('a worker that %s costs the upload, not the studio', async (_what, code) => {
    const broken = createImageLibrary({ publicDir, workerScript: new URL(`data:text/javascript,${encodeURIComponent(code)}`) });
    await expect(broken.store(plainPng(64, 64), 'a.png')).rejects.toMatchObject({
      status: 400,
      message: 'The studio could not process this picture. Export it smaller, for example 3,200 pixels wide, and upload it again.',
    });
    expect(workers.ended).toBe(workers.started);
    expect((await library.store(plainPng(64, 64), 'b.png')).width).toBe(64);
  });

  it('a worker that takes longer than the time limit is stopped, and the next picture gets its turn', async () => {
    const stuck = createImageLibrary({
      publicDir,
      workerScript: new URL(`data:text/javascript,${encodeURIComponent('for (;;) {}')}`),
      workerTimeLimitMs: 300,
    });
    const started = performance.now();
    const both = await Promise.allSettled([stuck.store(plainPng(64, 64), 'a.png'), stuck.store(plainPng(64, 64), 'b.png')]);
    for (const result of both) {
      expect(result).toMatchObject({
        status: 'rejected',
        reason: {
          status: 400,
          message: 'This picture took too long to process. Export it smaller, for example 3,200 pixels wide, and upload it again.',
        },
      });
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(600);
    expect(workers).toEqual({ started: 2, ended: 2 });
  });
});

describe('resolve: what /images/… may serve', () => {
  it.each([
    '../secret.png',
    '%2e%2e/secret.png',
    'uploads/../../secret.png',
    '.hidden.png',
    'uploads/.tmp.png',
    'notes.txt',
    'linked.png',
    '',
  ])('refuses %j', (relative) => {
    writeFileSync(path.join(publicDir, 'secret.png'), 'x');
    writeFileSync(path.join(publicDir, 'images', 'notes.txt'), 'x');
    symlinkSync(path.join(publicDir, 'secret.png'), path.join(publicDir, 'images', 'linked.png'));
    expect(library.resolve(relative)).toBeUndefined();
  });

  it('accepts a picture that exists', async () => {
    await library.store(await picture(8, 8, 'image/png'), 'a.png');
    expect(library.resolve('uploads/a.png')).toBe('uploads/a.png');
  });
});
