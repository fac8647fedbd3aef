import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseBuildInfo, readBuildInfoFile, writeBuildInfo } from './build-files.ts';

const COMMIT = '3f9a2c1b'.repeat(5);
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('the build file', () => {
  it('is written and read back', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'build-info-'));
    writeBuildInfo(path.join(dir, 'client'), { commit: COMMIT, builtAt: '2026-03-02T10:41:07.120Z' });
    expect(JSON.parse(readFileSync(path.join(dir, 'client', 'build.json'), 'utf8'))).toEqual({
      commit: COMMIT,
      builtAt: '2026-03-02T10:41:07.120Z',
    });
    expect(readBuildInfoFile(path.join(dir, 'client'))).toEqual({ commit: COMMIT, builtAt: '2026-03-02T10:41:07.120Z' });
  });

  it('replaces the file of a build made from a hard-linked copy of another, leaving the other as it was', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'build-info-'));
    const live = path.join(dir, 'live', 'client');
    const next = path.join(dir, 'next', 'client');
    writeBuildInfo(live, { commit: COMMIT, builtAt: '2026-03-02T10:41:07.120Z' });
    mkdirSync(next, { recursive: true });
    linkSync(path.join(live, 'build.json'), path.join(next, 'build.json'));
    writeBuildInfo(next, { commit: 'a'.repeat(40), builtAt: '2026-03-02T10:50:00.000Z' });
    expect(readBuildInfoFile(live)?.commit).toBe(COMMIT);
    expect(readBuildInfoFile(next)?.commit).toBe('a'.repeat(40));
  });

  it.each([
    ['not JSON', '<!doctype html>'],
    ['a short commit', JSON.stringify({ commit: '3f9a2c1', builtAt: '2026-03-02T10:41:07Z' })],
    ['no time', JSON.stringify({ commit: COMMIT })],
    ['a time that is none', JSON.stringify({ commit: COMMIT, builtAt: 'yesterday' })],
  ])('is refused when it has %s', (_, text) => {
    expect(parseBuildInfo(text)).toBeUndefined();
  });
});
