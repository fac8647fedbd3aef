import { describe, expect, it } from 'vitest';
import { isEmailAddress, normalizeEmail } from './email.ts';

describe('account e-mail addresses', () => {
  it('compares addresses trimmed and lower-cased', () => {
    expect(normalizeEmail('  Ana.Lopez@Example.COM\t')).toBe('ana.lopez@example.com');
  });

  it.each(['ana@example.com', 'ana.lopez+crm@mail.example.co.uk', `${'a'.repeat(64)}@example.com`])('accepts %s', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each([
    '',
    'ana',
    'ana@',
    '@example.com',
    'ana@example',
    'ana lopez@example.com',
    'ana@@example.com',
    'ana\u001b[2J@example.com',
    'ana@example.com\n',
    `ana@${'a'.repeat(250)}.com`,
  ])('refuses %j', (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });
});
