import { describe, expect, it } from 'vitest';
import { parseConfig } from '../server/config.ts';
import { readPublicSettings } from './build-settings.ts';

describe('readPublicSettings', () => {
  it('defaults to the local server and the relay', () => {
    expect(readPublicSettings({})).toEqual({ siteUrl: 'http://127.0.0.1:4321', bookingUrl: undefined, leadEndpoint: '/api/leads' });
  });

  it('reads each setting, dropping a trailing slash from the origin', () => {
    expect(
      readPublicSettings({
        SITE_URL: ' https://www.example.com/ ',
        BOOKING_URL: 'https://cal.example.com/book',
        PUBLIC_LEAD_ENDPOINT: 'https://hooks.example.com/lead',
      }),
    ).toEqual({
      siteUrl: 'https://www.example.com',
      bookingUrl: 'https://cal.example.com/book',
      leadEndpoint: 'https://hooks.example.com/lead',
    });
  });

  it('treats an empty PUBLIC_LEAD_ENDPOINT as demo mode', () => {
    expect(readPublicSettings({ PUBLIC_LEAD_ENDPOINT: '' }).leadEndpoint).toBe('');
    expect(readPublicSettings({ PUBLIC_LEAD_ENDPOINT: '  ' }).leadEndpoint).toBe('');
  });

  it('names every bad setting at once', () => {
    expect(() =>
      readPublicSettings({
        SITE_URL: 'https://example.com/site',
        BOOKING_URL: 'http://cal.example.com',
        PUBLIC_LEAD_ENDPOINT: '//evil.example/x',
      }),
    ).toThrow(
      [
        'SITE_URL must be an origin such as https://example.com (no path), got "https://example.com/site"',
        'BOOKING_URL must be an https:// URL such as https://cal.example.com/book, got "http://cal.example.com"',
        'PUBLIC_LEAD_ENDPOINT must be a path such as /api/leads, an http(s) URL, or empty for demo mode, got "//evil.example/x"',
      ].join('\n'),
    );
  });

  // The build and the server read the same variables from the same .env: a value one of them
  // accepts and the other refuses would surface only at deploy time.
  it.each([
    ['SITE_URL', 'https://example.com'],
    ['SITE_URL', 'http://localhost:4321/'],
    ['SITE_URL', 'https://example.com/site'],
    ['SITE_URL', 'https://example.com?x=1'],
    ['SITE_URL', 'https://user@example.com'],
    ['SITE_URL', 'example.com'],
    ['BOOKING_URL', 'https://cal.example.com/book?x=1'],
    ['BOOKING_URL', 'http://cal.example.com'],
    ['BOOKING_URL', 'javascript:alert(1)'],
    ['PUBLIC_LEAD_ENDPOINT', '/api/leads'],
    ['PUBLIC_LEAD_ENDPOINT', '//evil.example/leads'],
    ['PUBLIC_LEAD_ENDPOINT', '/api/lead s'],
    ['PUBLIC_LEAD_ENDPOINT', 'api/leads'],
    ['PUBLIC_LEAD_ENDPOINT', 'https://hooks.example.com/x'],
  ])('the build and the server agree on %s=%j', (name, value) => {
    const buildAccepts = (() => {
      try {
        readPublicSettings({ [name]: value });
        return true;
      } catch {
        return false;
      }
    })();
    expect(parseConfig({ [name]: value }).success).toBe(buildAccepts);
  });
});
