import { describe, expect, it } from 'vitest';
import { buildCspManifest, cspHash, findInlineHandlers, findInlineScripts } from './csp-manifest.ts';

const settings = { siteUrl: 'https://premieraiconsulting.com', leadEndpoint: '/api/leads' };

describe('findInlineScripts', () => {
  it('finds scripts a browser runs and skips external files and data blocks', () => {
    const html = [
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<script type="application/json" id="router-data">{"loaderData":{}}</script>',
      '<script type="application/ld+json" data-canonical="https://x">{"@graph":[]}</script>',
      '<script>window.a=1</script>',
      '<script type="module">import "/x.js"</script>',
      "<SCRIPT type='text/javascript'>b()</SCRIPT>",
    ].join('\n');
    expect(findInlineScripts(html)).toEqual(['window.a=1', 'import "/x.js"', 'b()']);
  });
});

describe('cspHash', () => {
  it('is the base64 SHA-256 of the exact script text, as a CSP source', () => {
    expect(cspHash('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    expect(cspHash('alert(1)')).not.toBe(cspHash('alert(1) '));
  });
});

describe('findInlineHandlers', () => {
  it('finds on* attributes and javascript: URLs, not words in text or other attributes', () => {
    const html =
      '<a href="javascript:void(0)">x</a><img src="/a.png" onerror="x()" alt="onload=nothing"><p>Say onclick="hi"</p><button aria-label="Toggle menu">';
    expect(findInlineHandlers(html)).toEqual(['href="javascript:void(0)"', 'onerror="x()"']);
  });
});

describe('buildCspManifest', () => {
  it('lists each distinct inline script hash once', () => {
    const page = { file: 'index.html', html: '<script>a()</script><script type="application/json">{}</script>' };
    const manifest = buildCspManifest([page, { ...page, file: 'about/index.html' }], settings);
    expect(manifest).toEqual({ scriptHashes: [cspHash('a()')], leadEndpointOrigin: null, siteUrl: settings.siteUrl, bookingFrame: null });
  });

  it('records the booking page’s origin and the routes that may frame it', () => {
    const bookingFrame = { origin: 'https://booking.premieraiconsulting.com', routes: ['/', '/calculator', '/contact', '/thankyou'] };
    expect(buildCspManifest([], settings, bookingFrame).bookingFrame).toEqual(bookingFrame);
  });

  it('records the origin of an external lead endpoint', () => {
    expect(buildCspManifest([], { ...settings, leadEndpoint: 'https://hooks.crm.example/leads?key=1' }).leadEndpointOrigin).toBe(
      'https://hooks.crm.example',
    );
    expect(buildCspManifest([], { ...settings, leadEndpoint: '' }).leadEndpointOrigin).toBeNull();
  });

  it('stops the build on inline event handlers, naming the file', () => {
    expect(() => buildCspManifest([{ file: 'contact/index.html', html: '<form onsubmit="send()">' }], settings)).toThrow(
      /contact\/index\.html: onsubmit="send\(\)"/,
    );
  });
});
