import { describe, expect, it } from 'vitest';
import { maskUrl } from './mask.ts';

describe('maskUrl', () => {
  it.each([
    ['/console/api/erasures?email=ana.lopez%40example.com', '/console/api/erasures?email=a***@example.com'],
    ['/console/api/accounts/ana%40example.com', '/console/api/accounts/a***@example.com'],
    ['/console/api/leads?q=ana@example.com&state=failed', '/console/api/leads?q=a***@example.com&state=failed'],
    ['/console/api/leads?q=%2B1%20(555)%20123-4567', '/console/api/leads?q=***67'],
    ['/console/api/leads?q=+1+555+123+4567', '/console/api/leads?q=***67'],
    ['/console/api/leads/7f1d2c3b-0000-4000-8000-000000000001', '/console/api/leads/7f1d2c3b-0000-4000-8000-000000000001'],
    ['/console/api/leads?limit=50&q=Acme', '/console/api/leads?limit=50&q=Acme'],
    ['/about', '/about'],
  ])('%s → %s', (url, masked) => expect(maskUrl(url)).toBe(masked));
});
