import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_MODULES_FILE } from './chunk-modules-plugin.ts';
import { findConsoleCodeInPublicSite } from './console-separation.ts';

let distDir: string;

function write(file: string, text: string) {
  const full = path.join(distDir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

/** A build with a home page, a 404 page, a public chunk and the console beside them. */
function writeBuild({ home = '', chunk = 'export const a=1;', modules = ['renderer/shell/entry.ts'] } = {}) {
  write('routes.json', JSON.stringify({ pages: { '/': 'index.html' }, notFound: '404.html', notFoundByPrefix: {} }));
  write(
    'client/index.html',
    `<!doctype html><html><head><script type="module" src="/assets/shell-1.js"></script></head><body>${home}</body></html>`,
  );
  write('client/404.html', '<!doctype html><p>Not found</p>');
  write('client/assets/shell-1.js', chunk);
  write(`client/${CHUNK_MODULES_FILE}`, JSON.stringify({ 'assets/shell-1.js': Object.fromEntries(modules.map((id) => [id, 10])) }));
  write('console/index.html', '<script type="module" src="/console/assets/index-1.js"></script>');
  write('console/assets/index-1.js', 'console app');
}

beforeEach(() => {
  distDir = mkdtempSync(path.join(tmpdir(), 'console-separation-'));
});
afterEach(() => rmSync(distDir, { recursive: true, force: true }));

describe('the public site holds no console code', () => {
  it('passes a build whose console lives only in console/', () => {
    writeBuild({ home: '<p>Our consoles for consultants</p>' });
    expect(findConsoleCodeInPublicSite(distDir)).toEqual([]);
  });

  it.each([
    ['a page links to the console', { home: '<a href="/console">Sign in</a>' }, 'index.html refers to the console'],
    [
      'a page loads a console asset',
      { home: '<script type="module" src="/console/assets/index-1.js"></script>' },
      'index.html refers to the console',
    ],
    [
      'a public chunk mentions a console asset',
      { chunk: 'import("/console/assets/index-1.js")' },
      "assets/shell-1.js mentions the console's assets (/console/assets/)",
    ],
    ['a public chunk bundles a console module', { modules: ['console/app/api.ts'] }, 'assets/shell-1.js holds console/app/api.ts'],
  ])('finds it when %s', (_case, build, problem) => {
    writeBuild(build);
    expect(findConsoleCodeInPublicSite(distDir)).toContain(problem);
  });
});
