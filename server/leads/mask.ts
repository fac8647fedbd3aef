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
