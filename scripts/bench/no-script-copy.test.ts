import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFixture, FIXTURE_TEXT_FILES } from '../../server/testing/site-fixture.ts';
import type { SiteFixture } from '../../server/testing/site-fixture.ts';
import { makeNoScriptCopy, withoutScripts } from './no-script-copy.ts';

let fixture: SiteFixture;
let copyDir: string;

beforeAll(async () => {
  fixture = await createSiteFixture();
  copyDir = path.join(mkdtempSync(path.join(tmpdir(), 'no-script-')), 'dist');
});
afterAll(async () => {
  await fixture.remove();
  rmSync(path.dirname(copyDir), { recursive: true, force: true });
});

describe('the no-script copy of a build', () => {
  it('removes every script element, inline, external and data blocks, and nothing else', () => {
    const html =
      '<head><title>T</title><script type="application/ld+json">{"a":1}</script></head><body><main>Text</main>' +
      '<script type="application/json" id="boot-modules">["/x.js"]</script>\n    <script>(function(){})();</script><script src="/y.js"></script></body>';
    expect(withoutScripts(html)).toBe('<head><title>T</title></head><body><main>Text</main></body>');
  });

  it('rewrites each page and its precompressed copies, and leaves every other file as built', () => {
    expect(makeNoScriptCopy(fixture.distDir, copyDir)).toBeGreaterThan(3);
    const page = path.join(copyDir, 'client', 'index.html');
    expect(readFileSync(page, 'utf8')).toBe(withoutScripts(FIXTURE_TEXT_FILES['index.html']!));
    expect(gunzipSync(readFileSync(`${page}.gz`)).toString('utf8')).toBe(readFileSync(page, 'utf8'));
    expect(existsSync(path.join(copyDir, 'routes.json'))).toBe(true);
  });
});
