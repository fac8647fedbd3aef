import { createHmac, timingSafeEqual } from 'node:crypto';

// The booking providers' webhook signatures, checked on the raw request body exactly as it arrived
// (a body parsed and written out again may differ by a space and would never match). Pure: no
// clock of its own, no store.
//
// Cal.com: "X-Cal-Signature-256" is the hex HMAC-SHA256 of the raw request body, keyed with the
// secret entered with the webhook (CAL_WEBHOOK_SECRET). A webhook saved without a secret is sent
// unsigned, so a missing header is refused, never taken as "no secret".
//
// Calendly: "Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex>", where v1 is the hex
// HMAC-SHA256 of "<t>.<raw body>" keyed with the subscription's signing key
// (CALENDLY_WEBHOOK_SIGNING_KEY). The timestamp is signed with the body, so a captured delivery
// cannot be sent again later with a fresh time: one outside the window is refused.

/** What a failed check was, for the log; the sender is only ever told 401. */
export type SignatureProblem = 'missing' | 'malformed' | 'mismatch' | 'stale';
export type SignatureCheck = { ok: true } | { ok: false; problem: SignatureProblem };

/**
 * How far a Calendly timestamp may be from our clock, either way. Calendly's documentation suggests
 * three minutes: long enough for its retry queue and a clock a little off, short enough that a
 * delivery someone captured is useless soon after. A timestamp ahead of our clock by more than
 * this is refused too: it would otherwise stay "fresh" for as long as it is in the future.
 */
export const CALENDLY_TOLERANCE_MS = 3 * 60 * 1000;

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function hmacHex(key: string, ...parts: readonly (string | Buffer)[]): string {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/** Equal hex digests, compared in constant time (the lengths are fixed once the format is checked). */
function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected.toLowerCase(), 'utf8');
  const b = Buffer.from(given.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function single(header: string | readonly string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Cal.com's X-Cal-Signature-256 over the raw body. */
export function checkCalSignature(
  rawBody: Buffer | string,
  header: string | readonly string[] | undefined,
  secret: string,
): SignatureCheck {
  const given = single(header);
  if (given === undefined) return { ok: false, problem: 'missing' };
  if (!HEX_SHA256.test(given)) return { ok: false, problem: 'malformed' };
  return sameHex(hmacHex(secret, rawBody), given) ? { ok: true } : { ok: false, problem: 'mismatch' };
}

/** The header Cal.com would send for this body (tests and the local stand-in sign with it). */
export function calSignature(rawBody: Buffer | string, secret: string): string {
  return hmacHex(secret, rawBody);
}

/** Calendly's t= and v1= parts; a header may carry several v1 (a key being rotated): any may match. */
function parseCalendlyHeader(header: string): { t: string; v1: string[] } | undefined {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) return undefined;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') t = value;
    else if (name === 'v1') v1.push(value);
  }
  if (t === undefined || !/^\d{1,12}$/.test(t) || v1.length === 0 || !v1.every((value) => HEX_SHA256.test(value))) return undefined;
  return { t, v1 };
}

/** Calendly's Calendly-Webhook-Signature over "<t>.<raw body>", with `t` within the window of `now`. */
export function checkCalendlySignature(
  rawBody: Buffer | string,
  header: string | readonly string[] | undefined,
  signingKey: string,
  now: number,
): SignatureCheck {
  const given = single(header);
  if (given === undefined) return { ok: false, problem: 'missing' };
  const parsed = parseCalendlyHeader(given);
  if (parsed === undefined) return { ok: false, problem: 'malformed' };
  const expected = hmacHex(signingKey, `${parsed.t}.`, rawBody);
  // Every candidate is compared, so the time taken does not say which one matched.
  const matched = parsed.v1.map((candidate) => sameHex(expected, candidate)).includes(true);
  if (!matched) return { ok: false, problem: 'mismatch' };
  // Checked after the signature, so a stale answer is only given to a delivery Calendly really signed.
  return Math.abs(now - Number(parsed.t) * 1000) <= CALENDLY_TOLERANCE_MS ? { ok: true } : { ok: false, problem: 'stale' };
}

/** The header Calendly would send for this body at `now` (tests and the local stand-in sign with it). */
export function calendlySignature(rawBody: Buffer | string, signingKey: string, now: number): string {
  const t = String(Math.floor(now / 1000));
  return `t=${t},v1=${hmacHex(signingKey, `${t}.`, rawBody)}`;
}
