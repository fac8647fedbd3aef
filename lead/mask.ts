import { LEAD_SOURCES } from './rules.ts';

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

/**
 * A run that reads as a phone number: seven digits or more, each after at most three characters that
 * are neither letters nor digits (`555-123-4567`, `555/123/4567`, `555_123_4567`, `(555) 123 4567`),
 * with an optional `+` or `(` before the first. Full-width digits and other look-alikes are read as
 * digits first (NFKC). The bounded separators keep the match linear in the text's length.
 */
const PHONE_RUN = /[+(]?\d(?:[^\p{L}\d]{0,3}\d){6,}/gu;
/** A lead id as the relay makes them: kept whole, though its groups of digits can read as a phone number. */
const LEAD_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A URL part is decoded until it stops changing, at most this many times (`%2540` is `@` twice over). */
const MAX_DECODES = 8;

/** One round of percent-decoding; a run of escapes that is not UTF-8 has its ASCII escapes decoded alone. */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
    }
  });
}

/** The text decoded until it stops changing, or undefined when it still changes after MAX_DECODES rounds. */
function decodeFully(raw: string): string | undefined {
  let text = raw;
  for (let round = 0; round < MAX_DECODES; round += 1) {
    const next = decodeOnce(text);
    if (next === text) return text.normalize('NFKC');
    text = next;
  }
  return decodeOnce(text) === text ? text.normalize('NFKC') : undefined;
}

/** Phone-like runs masked, lead ids left as they are. */
function maskPhoneRuns(text: string): string {
  let masked = '';
  let from = 0;
  for (const id of text.matchAll(LEAD_ID)) {
    masked += text.slice(from, id.index).replace(PHONE_RUN, maskPhone) + id[0];
    from = id.index + id[0].length;
  }
  return masked + text.slice(from).replace(PHONE_RUN, maskPhone);
}

/** Every word (a run without white space) holding an `@` with something on both sides is masked as an address. */
function maskAddresses(text: string): string {
  if (!text.includes('@')) return text;
  return text
    .split(/(\s+)/)
    .map((word) => (/.@./s.test(word) ? maskEmail(word) : word))
    .join('');
}

/** A lone surrogate, which no URL encoding can carry, as the escape of U+FFFD. */
const REPLACEMENT_ESCAPE = '%EF%BF%BD';

/** Characters a masked part shows as they are; the rest (white space, `&`, `=`, `/`, `?`, `%`, …) stay escaped. */
function encodeForLog(text: string): string {
  return text.replace(/[^\w.~!$'()*+,;:@-]/gu, (character: string) => {
    try {
      return encodeURIComponent(character);
    } catch {
      return REPLACEMENT_ESCAPE;
    }
  });
}

/**
 * One path segment, query key or query value as a log line shows it: decoded until it stops changing
 * (`+` is kept as it is, so `ana+crm@example.com` is one address), then every address-like word and
 * phone-like run in it masked. A part that holds neither is shown exactly as sent.
 */
function maskUrlPart(raw: string): string {
  const text = decodeFully(raw);
  // Escaped more times over than any honest link is: it could hide anything, so none of it is shown.
  if (text === undefined) return MASK;
  const masked = maskPhoneRuns(maskAddresses(text));
  return masked === text && text === raw.normalize('NFKC') ? raw : encodeForLog(masked);
}

/** Query keys whose value is what a person searched for: a name or a company is personal too. */
const SEARCH_KEYS = new Set(['q', 'search']);
/**
 * The console's filters that take typed text (a campaign, a source, a form name): often a person's
 * name, so a console address shows only that the filter was used, or the name of one of the site's forms.
 */
const CONSOLE_FILTER_KEYS = new Set(['campaign', 'source', 'form']);
const SITE_FORM_NAMES: ReadonlySet<string> = new Set(Object.values(LEAD_SOURCES));
const CONSOLE_PATH = /^\/console(?:[/?]|$)/;

/** A query value as typed into a form field: `+` stands for a space. */
function readQueryValue(raw: string): string | undefined {
  return decodeFully(raw.replaceAll('+', ' '));
}

/**
 * A request URL as a log line may show it: each path segment, query key and query value that holds
 * an e-mail address or a phone number, alone or among other text, is masked
 * (`/console/api/accounts/a***@example.com`, `?p=call***33+please`), a search (`q`) shows only
 * that there was one (`?q=(search)`), and so does a console filter of typed text (`?campaign=(filter)`).
 */
export function maskUrl(url: string): string {
  const split = url.indexOf('?');
  const pathPart = split === -1 ? url : url.slice(0, split);
  const path = pathPart.split('/').map(maskUrlPart).join('/');
  if (split === -1) return path;
  const inConsole = CONSOLE_PATH.test(decodeFully(pathPart)?.toLowerCase() ?? pathPart);
  const query = url
    .slice(split + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return maskUrlPart(pair);
      const key = pair.slice(0, equals);
      const name = decodeFully(key) ?? '';
      const value = pair.slice(equals + 1);
      if (SEARCH_KEYS.has(name) && value !== '') return `${key}=(search)`;
      if (
        inConsole &&
        CONSOLE_FILTER_KEYS.has(name) &&
        value !== '' &&
        !(name === 'form' && SITE_FORM_NAMES.has(readQueryValue(value) ?? ''))
      )
        return `${key}=(filter)`;
      return `${maskUrlPart(key)}=${maskUrlPart(pair.slice(equals + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}
