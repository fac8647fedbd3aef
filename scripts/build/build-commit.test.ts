import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCommit } from './build-commit.ts';

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
