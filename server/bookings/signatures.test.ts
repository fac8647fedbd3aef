import { describe, expect, it } from 'vitest';
import { CALENDLY_TOLERANCE_MS, calendlySignature, calSignature, checkCalendlySignature, checkCalSignature } from './signatures.ts';

// The two providers' signature formats, against digests computed apart from this code (openssl dgst
// -sha256 -hmac), so a change that hashed something else than the documented input would fail here.

const CAL_SECRET = 'cal-secret-0123456789';
const CAL_BODY = '{"triggerEvent":"BOOKING_CREATED"}';
const CAL_DIGEST = '736a54c743b377e781b19a5ca5914074e240b7aaaf5eb6f98c66ed4e8edb073a';

const CALENDLY_KEY = 'calendly-key-0123456789';
const CALENDLY_BODY = '{"event":"invitee.created"}';
const T = 1_700_000_000;
const CALENDLY_DIGEST = 'e9c3dffb8102f079140ca2001b2aebb831680b6dd2a15692e6d9a8d2effbe96b';
const AT_T = T * 1000;

describe('Cal.com: X-Cal-Signature-256, hex HMAC-SHA256 of the raw body', () => {
  it('accepts the documented signature, in either case of hex', () => {
    expect(calSignature(CAL_BODY, CAL_SECRET)).toBe(CAL_DIGEST);
    expect(checkCalSignature(Buffer.from(CAL_BODY), CAL_DIGEST, CAL_SECRET)).toEqual({ ok: true });
    expect(checkCalSignature(CAL_BODY, CAL_DIGEST.toUpperCase(), CAL_SECRET)).toEqual({ ok: true });
  });

  it('refuses a wrong secret, a tampered body, a missing or malformed header', () => {
    expect(checkCalSignature(CAL_BODY, CAL_DIGEST, 'another-secret-0123456789')).toEqual({ ok: false, problem: 'mismatch' });
    expect(checkCalSignature('{"triggerEvent":"BOOKING_CANCELLED"}', CAL_DIGEST, CAL_SECRET)).toEqual({ ok: false, problem: 'mismatch' });
    // The same JSON written out again with a space is another body: the raw bytes are what is signed.
    expect(checkCalSignature('{"triggerEvent": "BOOKING_CREATED"}', CAL_DIGEST, CAL_SECRET)).toEqual({ ok: false, problem: 'mismatch' });
    expect(checkCalSignature(CAL_BODY, undefined, CAL_SECRET)).toEqual({ ok: false, problem: 'missing' });
    expect(checkCalSignature(CAL_BODY, '', CAL_SECRET)).toEqual({ ok: false, problem: 'missing' });
    expect(checkCalSignature(CAL_BODY, 'no-secret-provided', CAL_SECRET)).toEqual({ ok: false, problem: 'malformed' });
    expect(checkCalSignature(CAL_BODY, `sha256=${CAL_DIGEST}`, CAL_SECRET)).toEqual({ ok: false, problem: 'malformed' });
  });
});

describe('Calendly: Calendly-Webhook-Signature t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
  const header = `t=${T},v1=${CALENDLY_DIGEST}`;

  it('accepts the documented signature within the window either way', () => {
    expect(calendlySignature(CALENDLY_BODY, CALENDLY_KEY, AT_T)).toBe(header);
    expect(checkCalendlySignature(CALENDLY_BODY, header, CALENDLY_KEY, AT_T)).toEqual({ ok: true });
    expect(checkCalendlySignature(CALENDLY_BODY, header, CALENDLY_KEY, AT_T + CALENDLY_TOLERANCE_MS)).toEqual({ ok: true });
    expect(checkCalendlySignature(CALENDLY_BODY, header, CALENDLY_KEY, AT_T - CALENDLY_TOLERANCE_MS)).toEqual({ ok: true });
    // Spaces after the comma, and a second v1 (a key being rotated) beside the right one.
    expect(checkCalendlySignature(CALENDLY_BODY, `t=${T}, v1=${'0'.repeat(64)}, v1=${CALENDLY_DIGEST}`, CALENDLY_KEY, AT_T)).toEqual({
      ok: true,
    });
  });

  it('refuses a delivery replayed after the window, or dated too far ahead', () => {
    expect(checkCalendlySignature(CALENDLY_BODY, header, CALENDLY_KEY, AT_T + CALENDLY_TOLERANCE_MS + 1000)).toEqual({
      ok: false,
      problem: 'stale',
    });
    expect(checkCalendlySignature(CALENDLY_BODY, header, CALENDLY_KEY, AT_T - CALENDLY_TOLERANCE_MS - 1000)).toEqual({
      ok: false,
      problem: 'stale',
    });
  });

  it('refuses a wrong key, a tampered body or time, a missing or malformed header', () => {
    expect(checkCalendlySignature(CALENDLY_BODY, header, 'another-key-0123456789', AT_T)).toEqual({ ok: false, problem: 'mismatch' });
    expect(checkCalendlySignature('{"event":"invitee.canceled"}', header, CALENDLY_KEY, AT_T)).toEqual({ ok: false, problem: 'mismatch' });
    // A fresh time put on an old signature: the time is signed with the body.
    expect(checkCalendlySignature(CALENDLY_BODY, `t=${T + 60},v1=${CALENDLY_DIGEST}`, CALENDLY_KEY, AT_T)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
    expect(checkCalendlySignature(CALENDLY_BODY, undefined, CALENDLY_KEY, AT_T)).toEqual({ ok: false, problem: 'missing' });
    expect(checkCalendlySignature(CALENDLY_BODY, `v1=${CALENDLY_DIGEST}`, CALENDLY_KEY, AT_T)).toEqual({ ok: false, problem: 'malformed' });
    expect(checkCalendlySignature(CALENDLY_BODY, `t=${T}`, CALENDLY_KEY, AT_T)).toEqual({ ok: false, problem: 'malformed' });
    expect(checkCalendlySignature(CALENDLY_BODY, `t=soon,v1=${CALENDLY_DIGEST}`, CALENDLY_KEY, AT_T)).toEqual({
      ok: false,
      problem: 'malformed',
    });
  });
});
