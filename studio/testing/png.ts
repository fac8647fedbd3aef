// PNG files built byte by byte for the picture tests: an RGB picture whose rows (the data before
// compression) are grey pixels, or exactly the bytes a test gives, interlaced or not.
import { crc32, deflateSync } from 'node:zlib';

export function plainPng(width: number, height: number, options: { interlaced?: boolean; rows?: Buffer } = {}): Buffer {
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
  header[8] = 8; // 8 bits per channel
  header[9] = 2; // RGB
  header[12] = options.interlaced ? 1 : 0;
  let rows = options.rows;
  if (!rows) {
    rows = Buffer.alloc((1 + width * 3) * height, 0x40);
    for (let row = 0; row < height; row++) rows[row * (1 + width * 3)] = 0; // each row: filter "none", then grey pixels
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
