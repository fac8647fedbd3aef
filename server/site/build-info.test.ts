import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCommit, parseBuildInfo, readBuildInfoFile, writeBuildInfo } from './build-info.ts';

const COMMIT = '3f9a2c1b'.repeat(5);
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('the commit a build names', () => {
  it('is BUILD_COMMIT when a CI sets it, in lower case', () => {
    expect(buildCommit('/nowhere', { BUILD_COMMIT: COMMIT.toUpperCase() })).toBe(COMMIT);
  });

  it.each(['3f9a2c1', 'main', `${COMMIT}0`])('refuses BUILD_COMMIT=%s: a short or misspelt id would never match a publish', (given) => {
    expect(() => buildCommit('/nowhere', { BUILD_COMMIT: given })).toThrow(
      /^BUILD_COMMIT must be a full commit id \(40 hexadecimal characters\)/,
    );
  });

  it("is the checkout's HEAD without it, and null outside git", () => {
    dir = mkdtempSync(path.join(tmpdir(), 'build-info-'));
    expect(buildCommit(dir, {})).toBeNull();
    execFileSync('git', ['-C', dir, 'init', '--quiet']);
    execFileSync('git', [
      '-C',
      dir,
      '-c',
      'user.name=A',
      '-c',
      'user.email=a@example.com',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'First',
    ]);
    expect(buildCommit(dir, {})).toBe(execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
  });
});

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
