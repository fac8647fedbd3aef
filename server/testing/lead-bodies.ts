import { buildRelaySubmission } from '../../lead/relay-submission.ts';
import type { LeadFormId } from '../../lead/rules.ts';
import { VALID_VALUES } from '../../lead/testing/valid-values.ts';

export { VALID_VALUES };

// What the browser forms send the relay, one valid body per form, made by the browser's own builder
// (lead/relay-submission.ts) so the relay's tests and the bench can never drift from it: the form's
// values as typed, `source`, the visit and its attribution, and the spam signals.

// Shown well before sending: a person's pace, never judged too fast.
const HUMAN_FILL_TIME_MS = 15_000;

const PAGE_PATHS: Readonly<Record<LeadFormId, string>> = {
  home: '/',
  roi: '/calculator',
  contact: '/contact',
  landing: '/ai-transformation',
};

export function validLeadBody(formId: LeadFormId, now: number = Date.now()): Record<string, unknown> {
  const submission = buildRelaySubmission(formId, VALID_VALUES[formId], {
    now: new Date(now),
    pageUrl: `http://127.0.0.1:4321${PAGE_PATHS[formId]}`,
    userAgent: 'Mozilla/5.0 (test)',
    referrer: formId === 'contact' ? 'https://www.google.com/' : '',
    attribution: { utm_source: 'newsletter', utm_campaign: 'spring', gclid: 'abc123' },
  });
  return { ...submission, website: '', form_shown_at: now - HUMAN_FILL_TIME_MS };
}
