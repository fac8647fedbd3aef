// Runs in a worker thread, one picture per worker (studio/server/images.ts starts it): decodes a PNG or
// JPEG, scales it down to at most `maxWidth` and encodes it again. Decoding a large picture takes
// seconds of CPU and hundreds of MB; here it neither stops the studio from answering nor stays in its
// memory once the worker ends.
import { parentPort, workerData } from 'node:worker_threads';
import { Jimp } from 'jimp';
import { pngDataFitsItsSize } from './png-bounds.ts';

export type ImageJob = { bytes: Uint8Array; format: 'png' | 'jpeg'; maxWidth: number; jpegQuality: number };
/** `ok: false`: the picture could not be decoded (damaged). */
export type ImageJobResult = { ok: true; output: Uint8Array } | { ok: false };

const job = workerData as ImageJob;
let result: ImageJobResult;
try {
  // A PNG whose data inflates past its declared size is damaged (or built to exhaust memory).
  if (job.format === 'png' && !pngDataFitsItsSize(job.bytes)) throw new Error('PNG data larger than its size allows');
  const image = await Jimp.read(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
  if (image.width > job.maxWidth) image.resize({ w: job.maxWidth });
  const output =
    job.format === 'png' ? await image.getBuffer('image/png') : await image.getBuffer('image/jpeg', { quality: job.jpegQuality });
  result = { ok: true, output };
} catch {
  result = { ok: false };
}
parentPort!.postMessage(result);
