import { FORM_SHOWN_AT_FIELD, HONEYPOT_FIELD } from '../../lead/rules.ts';
import { sanitizeText } from '../../lead/sanitize.ts';

// Spam judgement without friction, by adding up signals. A filled honeypot (a field people never see)
// is strong: spam on its own. The others are weak, each a thing people also do: a phone's autofill
// sends a form in under a second, and people paste web addresses. A weak signal alone never keeps a
// lead from the CRM; two together make spam. Spam is answered like a success and stored flagged,
// never forwarded.

/** Below this, from the form appearing to it being sent, a submission is "too fast" (a weak signal). */
export const MIN_FILL_TIME_MS = 2_000;

export const SPAM_REASONS = { honeypot: 'honeypot', tooFast: 'too_fast', links: 'links' } as const;
export type SpamSignal = (typeof SPAM_REASONS)[keyof typeof SPAM_REASONS];
/** The signals a spam submission showed, joined with commas (`too_fast,links`), as the store keeps them. */
export type SpamReason = string;

/** How much each signal counts; a submission is spam from SPAM_SCORE onwards. */
export const SPAM_SIGNAL_WEIGHTS: Readonly<Record<SpamSignal, number>> = { honeypot: 2, too_fast: 1, links: 1 };
export const SPAM_SCORE = 2;

// Fields a person types free text into: where a bot puts the links it is paid to post.
const TYPED_TEXT_FIELDS = ['name', 'company', 'phone', 'message', 'challenge'] as const;
// A company field often holds the company's own domain (`www.acme.com`, `acme.com`, even with
// `https://`): a web address there is ordinary, so it counts only towards "more than one address".
const LINK_FIELDS = ['name', 'phone', 'message', 'challenge'] as const;
// A web address with its scheme, as bots post them to make it clickable.
const SCHEME_ADDRESS = /https?:\/\//i;
// Link markup (forum BBCode or an HTML anchor): nobody types it into a form, in any field.
const LINK_MARKUP = /\[url[=\]]|<a\s[^>]*href/i;
// Every web address, with a scheme or starting `www.`: more than one across the fields is a link list.
const ANY_ADDRESS = /https?:\/\/|\bwww\./gi;

/** The signals a submission shows, strongest first (empty for a person's ordinary lead). */
export function readSpamSignals(body: Readonly<Record<string, unknown>>, receivedAt: number): SpamSignal[] {
  const signals: SpamSignal[] = [];
  const honeypot = body[HONEYPOT_FIELD];
  if (honeypot !== undefined && (typeof honeypot !== 'string' || honeypot.trim() !== '')) signals.push(SPAM_REASONS.honeypot);
  if (isTooFast(body, receivedAt)) signals.push(SPAM_REASONS.tooFast);
  if (hasLinks(body)) signals.push(SPAM_REASONS.links);
  return signals;
}

/**
 * The links signal, judged on each typed field as it came and as it will be stored: the sanitiser can
 * join a web address from pieces around what it removes (`h<script></script>ttps://…`).
 */
function hasLinks(body: Readonly<Record<string, unknown>>): boolean {
  const fields = TYPED_TEXT_FIELDS.flatMap((field) => {
    const value = body[field];
    return typeof value === 'string' ? [{ field, versions: [value, sanitizeText(value)] }] : [];
  });
  const inLinkField = fields.filter(({ field }) => (LINK_FIELDS as readonly string[]).includes(field));
  if (inLinkField.some(({ versions }) => versions.some((text) => SCHEME_ADDRESS.test(text)))) return true;
  if (fields.some(({ versions }) => versions.some((text) => LINK_MARKUP.test(text)))) return true;
  const addresses = fields.reduce((count, { versions }) => count + Math.max(...versions.map(countAddresses)), 0);
  return addresses > 1;
}

function countAddresses(text: string): number {
  return text.match(ANY_ADDRESS)?.length ?? 0;
}

/** Why a submission is spam (its signals, when they add up to SPAM_SCORE), or undefined. */
export function judgeSpam(body: Readonly<Record<string, unknown>>, receivedAt: number): SpamReason | undefined {
  const signals = readSpamSignals(body, receivedAt);
  const score = signals.reduce((sum, signal) => sum + SPAM_SIGNAL_WEIGHTS[signal], 0);
  return score >= SPAM_SCORE ? signals.join(',') : undefined;
}

/**
 * The fill time is measured on the browser's own clock (`submitted_at` − `form_shown_at`), so a
 * visitor's clock being off never counts against them. When `submitted_at` is missing the server's
 * receive time stands in, and only a plausible (non-negative) gap counts. No `form_shown_at` (a form
 * posted without JavaScript) is not judged by time.
 */
function isTooFast(body: Readonly<Record<string, unknown>>, receivedAt: number): boolean {
  const shownAt = readTimestampMs(body[FORM_SHOWN_AT_FIELD]);
  if (shownAt === undefined) return false;
  const submittedAt = typeof body.submitted_at === 'string' ? Date.parse(body.submitted_at) : Number.NaN;
  if (!Number.isNaN(submittedAt)) return submittedAt - shownAt < MIN_FILL_TIME_MS;
  const fillTimeMs = receivedAt - shownAt;
  return fillTimeMs >= 0 && fillTimeMs < MIN_FILL_TIME_MS;
}

function readTimestampMs(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : undefined;
}
