import type { LeadFormValuesById } from '../../lead/validation.ts';
import { buildRelaySubmission } from '../../lead/relay-submission.ts';
import type { LeadFormId } from '../../lead/rules.ts';

// What the browser forms send the relay, one valid body per form, made by the browser's own builder
// (lead/relay-submission.ts) so the relay's tests and the bench can never drift from it: the form's
// values as typed, `source`, the visit and its attribution, and the spam signals.

// Shown well before sending: a person's pace, never judged too fast.
const HUMAN_FILL_TIME_MS = 15_000;

const PERSON = { name: "Seán O'Brien", email: 'sean.obrien@example.com', phone: '+1 (555) 123-4567' };

export const VALID_VALUES: { readonly [F in LeadFormId]: LeadFormValuesById[F] } = {
  home: { ...PERSON, company: 'Smith & Sons' },
  roi: {
    companySize: '11-50',
    currentRevenue: '2500000',
    industry: 'technology',
    teamSize: '12',
    averageSalary: '65000',
    manualHours: '10-20',
    ...PERSON,
    company: 'Smith & Sons',
    challenge: 'Too many manual hand-offs',
    best_time: 'morning',
  },
  contact: { ...PERSON, company: '', service_interest: 'AI Consulting', message: 'We would like to automate our call handling.' },
  landing: {
    ...PERSON,
    company: 'Smith & Sons',
    revenue: '1m-5m',
    challenge: 'Our team spends hours on scheduling.',
    bestTime: 'afternoon',
  },
};

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
