import { describe, expect, it } from 'vitest';
import { cspHash, findInlineScripts } from '../scripts/seo/csp-manifest.ts';
import { BOOT_LOADER_SCRIPT, bootModules, bootTags } from './boot-loader.ts';

describe('boot loader tags', () => {
  it('list the entry first, then the chunks, and read back the same list', () => {
    const html = `<body>${bootTags('/assets/index-1.js', ['/assets/react-2.js', '/assets/page-home-3.js'])}</body>`;
    expect(bootModules(html)).toEqual(['/assets/index-1.js', '/assets/react-2.js', '/assets/page-home-3.js']);
    expect(bootModules('<body></body>')).toEqual([]);
  });

  it('are one data block and one inline script, the same on every page (one CSP hash for the site)', () => {
    const home = bootTags('/assets/index-1.js', ['/assets/page-home-3.js']);
    const about = bootTags('/assets/index-1.js', ['/assets/page-about-4.js']);
    expect(findInlineScripts(home)).toEqual([BOOT_LOADER_SCRIPT]);
    expect(new Set([...findInlineScripts(home), ...findInlineScripts(about)].map(cspHash)).size).toBe(1);
  });

  it('cannot be closed early by a URL', () => {
    const html = bootTags('/assets/a</script><script>alert(1)</script>.js', []);
    expect(html).not.toContain('</script><script>alert');
    expect(bootModules(html)).toEqual(['/assets/a</script><script>alert(1)</script>.js']);
  });
});
