// Reads the public build-time settings (SITE_URL, BOOKING_URL, PUBLIC_LEAD_ENDPOINT) once, with clear errors.
import type { PublicSettings } from './public-settings.ts';

export const DEFAULT_SITE_URL = 'http://127.0.0.1:4321';
export const DEFAULT_LEAD_ENDPOINT = '/api/leads';

export function readPublicSettings(env: Record<string, string | undefined>): PublicSettings {
  const siteUrl = (env.SITE_URL?.trim() || DEFAULT_SITE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+$/.test(siteUrl)) throw new Error(`SITE_URL must be an origin like https://example.com (no path), got "${env.SITE_URL}"`);
  const bookingUrl = env.BOOKING_URL?.trim() || undefined;
  if (bookingUrl && !/^https:\/\/\S+$/.test(bookingUrl)) throw new Error(`BOOKING_URL must be an https:// address, got "${bookingUrl}"`);
  const leadEndpoint = env.PUBLIC_LEAD_ENDPOINT === undefined ? DEFAULT_LEAD_ENDPOINT : env.PUBLIC_LEAD_ENDPOINT.trim();
  if (leadEndpoint && !/^(\/|https?:\/\/)\S*$/.test(leadEndpoint)) throw new Error(`PUBLIC_LEAD_ENDPOINT must be a path like /api/leads or an http(s) address, or empty for demo mode; got "${leadEndpoint}"`);
  return Object.freeze({ siteUrl, bookingUrl, leadEndpoint });
}
