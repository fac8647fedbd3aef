// Where a build writes the files that depend on the content (scripts/build/site-files.ts): straight
// into an empty folder (a full build), or into a copy of the live build (an incremental one,
// scripts/build/incremental.ts). The copy shares the live build's files through hard links, and the
// live build is being served: a file is never written in place, it is replaced by a new one (new
// inode), with its precompressed copies made again.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest|map)$/;
/** Folders of a build whose text files get precompressed copies (the others are never served). */
const SERVED_FOLDERS = ['client/', 'console/'];

export type BuildOutput = {
  /** The build folder. */
  readonly dir: string;
  /** Writes a file of the build (`file` relative to the build folder, with `/`). */
  write(file: string, data: string | Uint8Array): void;
  /** True when the previous build holds `file` made from the same `key`: it stays as it is. */
  reusable(file: string, key: string): boolean;
  /** Notes what `file` was made from, for the next build. */
  record(file: string, key: string): void;
  /** What each costly file was made from, as recorded. */
  readonly keys: Record<string, string>;
};

/** Makes `file` with `make` unless the previous build holds it made from the same `key`. */
export async function writeMade(output: BuildOutput, file: string, key: string, make: () => Promise<string | Uint8Array>): Promise<void> {
  if (!output.reusable(file, key)) output.write(file, await make());
  output.record(file, key);
}

/** A full build: every file written into an empty folder; compressTree precompresses them all at the end. */
export function fullOutput(dir: string): BuildOutput {
  const keys: Record<string, string> = {};
  return {
    dir,
    write(file, data) {
      const target = path.join(dir, file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, data);
    },
    reusable: () => false,
    record(file, key) {
      keys[file] = key;
    },
    keys,
  };
}

export type IncrementalOutput = BuildOutput & {
  /** The files written anew (the others are the live build's). */
  readonly written: readonly string[];
  /** Precompresses the files written anew. */
  finish(): Promise<void>;
};

/** An incremental build: `dir` holds a copy of the previous build, whose keys are `previousKeys`. */
export function incrementalOutput(dir: string, previousKeys: Readonly<Record<string, string>>): IncrementalOutput {
  const keys: Record<string, string> = {};
  const written: string[] = [];
  return {
    dir,
    write(file, data) {
      const target = path.join(dir, file);
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      if (existsSync(target) && readFileSync(target).equals(bytes)) return; // the same bytes: keep the live build's file and its copies
      for (const stale of [target, `${target}.br`, `${target}.gz`]) rmSync(stale, { force: true });
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, bytes);
      written.push(file);
    },
    reusable: (file, key) => previousKeys[file] === key && existsSync(path.join(dir, file)),
    record(file, key) {
      keys[file] = key;
    },
    keys,
    written,
    async finish() {
      const files = written.filter((file) => SERVED_FOLDERS.some((folder) => file.startsWith(folder)) && COMPRESSIBLE.test(file));
      await Promise.all(files.map((file) => compressFile(path.join(dir, file))));
    },
  };
}

function brotliOptions(size: number) {
  return { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: size } };
}
const GZIP_OPTIONS = { level: 9 };

/** Brotli and gzip copies beside one text file (the same bytes compressTree writes, off the main thread). */
export async function compressFile(file: string): Promise<void> {
  const content = readFileSync(file);
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(content, brotliOptions(content.length)),
    promisify(gzip)(content, GZIP_OPTIONS),
  ]);
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
}

/** Brotli and gzip copies beside every text file, so the server never compresses at request time. */
export function compressTree(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      count += compressTree(file);
      continue;
    }
    if (!COMPRESSIBLE.test(name)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, brotliOptions(content.length)));
    writeFileSync(`${file}.gz`, gzipSync(content, GZIP_OPTIONS));
    count++;
  }
  return count;
}
