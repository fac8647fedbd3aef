import { FORM_SHOWN_AT_FIELD, HONEYPOT_FIELD } from '../../lead/rules.ts';

// Spam judgement without friction: a filled honeypot, or a form sent faster than a
// person could fill it in. Spam is answered like a success and stored flagged, never forwarded.

// Even with autofill a person needs a few seconds to fill four fields and press the button;
// scripts post at once. Below this the submission is judged spam.
export const MIN_FILL_TIME_MS = 2_000;

export const SPAM_REASONS = { honeypot: 'honeypot', tooFast: 'too_fast' } as const;
export type SpamReason = (typeof SPAM_REASONS)[keyof typeof SPAM_REASONS];

/**
 * Why a submission is spam, or undefined. The fill time is measured on the browser's own clock
 * (`submitted_at` − `form_shown_at`), so a visitor's clock being off never makes them spam. When
 * `submitted_at` is missing the server's receive time stands in, and only a plausible (non-negative)
 * gap counts. No `form_shown_at` (a form posted without JavaScript) is not judged by time.
 */
export function judgeSpam(body: Readonly<Record<string, unknown>>, receivedAt: number): SpamReason | undefined {
  const honeypot = body[HONEYPOT_FIELD];
  if (honeypot !== undefined && (typeof honeypot !== 'string' || honeypot.trim() !== '')) return SPAM_REASONS.honeypot;

  const shownAt = readTimestampMs(body[FORM_SHOWN_AT_FIELD]);
  if (shownAt === undefined) return undefined;
  const submittedAt = typeof body.submitted_at === 'string' ? Date.parse(body.submitted_at) : Number.NaN;
  if (!Number.isNaN(submittedAt)) return submittedAt - shownAt < MIN_FILL_TIME_MS ? SPAM_REASONS.tooFast : undefined;
  const fillTimeMs = receivedAt - shownAt;
  return fillTimeMs >= 0 && fillTimeMs < MIN_FILL_TIME_MS ? SPAM_REASONS.tooFast : undefined;
}

function readTimestampMs(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : undefined;
}
