// The code fingerprint decides whether a publish may build only what it changed: it must change with
// the code and with nothing else, whatever a build, the studio or a running server writes in the
// project folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleMode, codeFingerprint } from './build-inputs.ts';

let project: string;
afterEach(() => rmSync(project, { recursive: true, force: true }));

function write(relative: string, text: string) {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function makeProject() {
  project = mkdtempSync(path.join(tmpdir(), 'code-fingerprint-'));
  write('package.json', '{"name":"site"}\n');
  write('blocks/hero/Block.tsx', 'export const Hero = () => null;\n');
  write('public/favicon.svg', '<svg/>\n');
  write('node_modules/.package-lock.json', '{"lockfileVersion":3}\n');
}

describe('the code fingerprint', () => {
  it.each([
    ['the build output', 'dist/client/index.html'],
    ["the studio's builds and drafts", '.studio/builds/2026-publish/routes.json'],
    ['the browser tests’ studio app', '.tmp/studio-app/index.html'],
    ['a lead store beside the project', 'leads.sqlite'],
    ['visit counts a running server keeps beside that store', 'analytics.sqlite'],
    ['their write-ahead log', 'analytics.sqlite-wal'],
    ['the local data folder', 'data/leads.sqlite'],
    ['a server log', 'server.log'],
    ["the type checker's notes", 'tsconfig.tsbuildinfo'],
    ['the content', 'content/pages/home.yaml'],
    ['an uploaded picture', 'public/images/uploads/team.webp'],
    ['a test report', 'test-results/report.json'],
  ])('stays the same when %s is written', (_what, file) => {
    makeProject();
    const before = codeFingerprint(project);
    write(file, `written at ${Date.now()}\n`);
    expect(codeFingerprint(project)).toBe(before);
  });

  it.each([
    ['a component', 'blocks/hero/Block.tsx'],
    ['a public file', 'public/favicon.svg'],
    ['the installed packages', 'node_modules/.package-lock.json'],
  ])('changes when %s changes', (_what, file) => {
    makeProject();
    const before = codeFingerprint(project);
    write(file, 'changed\n');
    expect(codeFingerprint(project)).not.toBe(before);
  });

  it('reads bytes, not times: a file written again with the same bytes changes nothing', () => {
    makeProject();
    const before = codeFingerprint(project);
    write('blocks/hero/Block.tsx', 'export const Hero = () => null;\n');
    expect(codeFingerprint(project)).toBe(before);
  });
});

describe('the bundle mode', () => {
  it.each([
    [undefined, 'production'],
    ['', 'production'],
    ['production', 'production'],
    ['development', 'development'],
  ])('for NODE_ENV %j is %s (unset, the bundler builds for production)', (nodeEnv, mode) => {
    expect(bundleMode(nodeEnv)).toBe(mode);
  });
});
