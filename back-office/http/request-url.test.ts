// The console and the studio route every spelling of a path as this one canonical path.
import { describe, expect, it } from 'vitest';
import { canonicalUrl } from './request-url.ts';

describe('canonicalUrl', () => {
  it.each([
    ['/%61pi/entries', '/api/entries'],
    ['//api//entries/', '/api/entries'],
    ['/api/./entries', '/api/entries'],
    ['/x/../api/entries', '/api/entries'],
    ['/../../api/entries', '/api/entries'],
    ['/api%2Fentries', '/api/entries'],
    ['/api\\entries', '/api/entries'],
    ['/api/file?path=content/site.yaml', '/api/file?path=content/site.yaml'],
    // Decoded once only: an escaped percent sign stays a percent sign, never becomes another letter.
    ['/%2561pi/entries', '/%2561pi/entries'],
    ['/images/uploads/a%20b.png', '/images/uploads/a%20b.png'],
    ['/%zz', '/%zz'],
  ])('%s is %s', (raw, canonical) => {
    expect(canonicalUrl(raw)).toBe(canonical);
  });
});
