import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const BUILD_TIMEOUT_MS = 240_000;
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'build-test-'));
  cpSync(path.join(root, 'content'), path.join(work, 'content'), { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function build(env: Record<string, string>) {
  return run('npm', ['run', 'build'], { cwd: root, env: { ...process.env, ...env, NODE_ENV: 'production', CONTENT_DIR: path.join(work, 'content') }, maxBuffer: 64 * 1024 * 1024 });
}

describe('the build reads the YAML content', () => {
  it(
    'an edited YAML value appears in the prerendered page',
    async () => {
      const home = path.join(work, 'content/pages/home.yaml');
      writeFileSync(home, readFileSync(home, 'utf8').replace('heading: Transform Your Business with Premier AI', 'heading: Edited By The Build Test'));
      const outDir = path.join(work, 'dist');
      await build({ OUT_DIR: outDir });
      const html = readFileSync(path.join(outDir, 'client/index.html'), 'utf8');
      expect(html).toMatch(/<h1[^>]*>Edited By The Build Test<\/h1>/);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'an invalid edit stops the build with file:line:column, the property path and a plain sentence',
    async () => {
      const home = path.join(work, 'content/pages/home.yaml');
      const lines = readFileSync(home, 'utf8').split('\n');
      const headingLine = lines.findIndex((l) => l.startsWith('    heading: '));
      lines.splice(headingLine, 1);
      writeFileSync(home, lines.join('\n'));
      const failure = await build({ OUT_DIR: path.join(work, 'dist-invalid') }).then(
        () => undefined,
        (error: { stderr: string; stdout: string; code: number }) => error,
      );
      expect(failure, 'the build must fail').toBeDefined();
      const output = `${failure!.stdout}\n${failure!.stderr}`;
      expect(output).toMatch(/content\/pages\/home\.yaml:\d+:\d+ blocks\[0\] \(hero\): "heading" is missing\. Add it: The headline/);
    },
    BUILD_TIMEOUT_MS,
  );
});
