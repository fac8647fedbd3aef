import { z } from 'zod';

// An account is named by its e-mail address. Addresses are compared trimmed and lower-cased: people
// type their address in whatever case, and two accounts for Ana@Example.com and ana@example.com
// would be the same person twice.

// The longest address SMTP can carry (RFC 5321: a 256-octet path less its angle brackets).
export const MAX_EMAIL_LENGTH = 254;

const EMAIL = z.email();

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** True for a plausible address (zod's e-mail rule: ASCII only, so never a control character). */
export function isEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.safeParse(email).success;
}
