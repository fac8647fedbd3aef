// Logs never carry a full email address or phone number: enough to tell leads apart.

const MASK = '***';
const PHONE_VISIBLE_DIGITS = 2;

/** 'jane.doe@example.com' → 'j***@example.com'. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return MASK;
  return `${email.slice(0, 1)}${MASK}${email.slice(at)}`;
}

/** '+1 (555) 123-4567' → '***67'. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length <= PHONE_VISIBLE_DIGITS ? MASK : `${MASK}${digits.slice(-PHONE_VISIBLE_DIGITS)}`;
}

/** A segment or query value that reads as a phone number: seven digits or more, with the usual separators. */
const PHONE_LIKE = /^\+?[\d\s().-]{7,}$/;

function maskUrlPart(raw: string): string {
  let text: string;
  try {
    text = decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    text = raw;
  }
  if (text.includes('@')) return maskEmail(text);
  if (PHONE_LIKE.test(text) && text.replace(/\D/g, '').length >= 7) return maskPhone(text);
  return raw;
}

/**
 * A request URL as a log line may show it: each path segment and query value that holds an e-mail
 * address or a phone number is masked (`/console/api/accounts/a***@example.com`, `?q=***67`).
 */
export function maskUrl(url: string): string {
  const split = url.indexOf('?');
  const pathPart = split === -1 ? url : url.slice(0, split);
  const path = pathPart.split('/').map(maskUrlPart).join('/');
  if (split === -1) return path;
  const query = url
    .slice(split + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? maskUrlPart(pair) : `${pair.slice(0, equals + 1)}${maskUrlPart(pair.slice(equals + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}
