import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm run check:content` is the command the README gives editors: its first words must be the
// plain message, never ajv-cli's raw report.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const CHECK_TIMEOUT_MS = 60_000;
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'check-content-'));
  cpSync(path.join(root, 'content'), path.join(work, 'content'), { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function checkContent(): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'check:content'], {
      cwd: root,
      env: { ...process.env, CONTENT_DIR: path.join(work, 'content') },
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, output: `${failure.stdout}${failure.stderr}` };
  }
}

describe('npm run check:content', () => {
  it(
    'passes the shipped content, with the plain check and then ajv-cli',
    async () => {
      const { code, output } = await checkContent();
      expect(code).toBe(0);
      expect(output).toMatch(
        /^Content OK: site\.yaml, roi\.yaml, \d+ pages, \d+ articles\.\najv-cli \(the check CI runs\): every file matches its schema\.\n/,
      );
      // Then the warnings, last, each on its own located line: advice that leaves the exit code at 0.
      const [, list = ''] = output.split(/\n\n\d+ warnings? \(advice for readers and search engines; nothing is stopped by it\):\n/);
      expect(
        list
          .trimEnd()
          .split('\n')
          .filter(Boolean)
          .every((line) => /^ {2}\S+\.(?:yaml|md):\d+:\d+ /.test(line)),
      ).toBe(true);
    },
    CHECK_TIMEOUT_MS,
  );

  it(
    'reports a typo in plain words first, with a suggestion, and nothing from ajv-cli',
    async () => {
      const about = path.join(work, 'content/pages/about.yaml');
      writeFileSync(about, readFileSync(about, 'utf8').replace('    heading: Our Story', '    headng: Our Story'));
      const { code, output } = await checkContent();
      expect(code).toBe(1);
      const [summary, first] = output.split('\n');
      expect(summary).toBe('Content check failed (1 problem):');
      expect(first).toMatch(
        /^ {2}\S*pages\/about\.yaml:\d+:\d+ blocks\[\d+\] \(rich-text\) headng: "headng" is not something this part of the form has: did you mean "Heading"\?/,
      );
      expect(output).not.toContain('must NOT have additional properties');
      expect(output).not.toMatch(/\n\s+at /);
    },
    CHECK_TIMEOUT_MS,
  );
});
