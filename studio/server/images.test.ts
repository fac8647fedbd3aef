import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Jimp } from 'jimp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createImageLibrary, ImageError } from './images.ts';

let publicDir: string;
let library: ReturnType<typeof createImageLibrary>;
beforeEach(() => {
  publicDir = mkdtempSync(path.join(tmpdir(), 'studio-images-'));
  mkdirSync(path.join(publicDir, 'images'), { recursive: true });
  library = createImageLibrary({ publicDir });
});
afterEach(() => rmSync(publicDir, { recursive: true, force: true }));

async function picture(width: number, height: number, mime: 'image/png' | 'image/jpeg'): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0x3366ccff });
  return mime === 'image/png' ? image.getBuffer('image/png') : image.getBuffer('image/jpeg');
}

/** A minimal lossless WebP (VP8L) header declaring `width`×`height`, as a real encoder writes it. */
function webp(width: number, height: number, extra: Buffer[] = []): Buffer {
  const vp8l = Buffer.alloc(8 + 6);
  vp8l.write('VP8L', 0, 'ascii');
  vp8l.writeUInt32LE(5, 4);
  vp8l[8] = 0x2f;
  vp8l.writeUInt32LE((width - 1) | ((height - 1) << 14), 9);
  const body = Buffer.concat([vp8l, ...extra]);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'ascii');
  return Buffer.concat([header, body]);
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

  it('refuses a damaged PNG', async () => {
    const png = await picture(64, 64, 'image/png');
    const error = await refusal(png.subarray(0, 40));
    expect(error).toMatchObject({ status: 400, message: 'This picture is damaged and cannot be read.' });
  });

  it('refuses a picture declaring 50000×50000 pixels before decoding it', async () => {
    const png = await picture(4, 4, 'image/png');
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(50_000, 16);
    bomb.writeUInt32BE(50_000, 20);
    const error = await refusal(bomb);
    expect(error).toMatchObject({ status: 400, message: 'This picture is too large to process (50000×50000 pixels).' });
  });

  it('lists stored pictures with their sizes, newest first', async () => {
    await library.store(await picture(20, 10, 'image/png'), 'first.png');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await library.store(await picture(30, 15, 'image/png'), 'second.png');
    expect(library.list().map((image) => [image.src, image.width, image.height])).toEqual([
      ['/images/uploads/second.png', 30, 15],
      ['/images/uploads/first.png', 20, 10],
    ]);
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
