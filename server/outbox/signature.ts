import { createHmac } from 'node:crypto';

// Standard Webhooks signing (standardwebhooks.com): the signed content is `${id}.${timestamp}.${body}`,
// HMAC-SHA256 with the secret's bytes (base64 after the optional `whsec_` prefix), sent as `v1,<base64>`.

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_VERSION = 'v1';

export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export function decodeWebhookSecret(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The three Standard Webhooks headers for one request; `timestampSeconds` is Unix time in seconds. */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): WebhookSignatureHeaders {
  const signature = createHmac('sha256', decodeWebhookSecret(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `${SIGNATURE_VERSION},${signature}`,
  };
}
