import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './signature.ts';

// Verified the way a Standard Webhooks receiver does it, written here from the specification
// rather than reusing the signing code.
function verifyStandardWebhook(secret: string, headers: Record<string, string>, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return (headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference vector', () => {
    const headers = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it.each([
    ['with the whsec_ prefix', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['without the prefix', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  ])('signs so a receiver verifies it, secret %s', (_, secret) => {
    const body = JSON.stringify({ name: "Seán O'Brien", company: 'Smith & Sons' });
    const headers = signWebhook(secret, 'lead-1', 1_700_000_000, body);
    expect(verifyStandardWebhook(secret, headers, body)).toBe(true);
    expect(verifyStandardWebhook(secret, headers, `${body} `)).toBe(false);
    expect(verifyStandardWebhook(secret, { ...headers, 'webhook-id': 'lead-2' }, body)).toBe(false);
  });
});
