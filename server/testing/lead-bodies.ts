import { LEAD_SOURCES } from '../../lead/validation.ts';
import type { LeadFormId } from '../../lead/validation.ts';

// What the browser forms send (spec §3 payloads plus the spam signals and attribution), one valid
// body per form, for the relay's tests and the bench.

// Shown well before sending: a person's pace, never judged too fast.
const HUMAN_FILL_TIME_MS = 15_000;

export function validLeadBody(formId: LeadFormId, now: number = Date.now()): Record<string, unknown> {
  const common = {
    submitted_at: new Date(now).toISOString(),
    page_url: 'http://127.0.0.1:4321/',
    website: '',
    form_shown_at: now - HUMAN_FILL_TIME_MS,
    utm_source: 'newsletter',
    utm_campaign: 'spring',
    gclid: 'abc123',
  };
  const person = { name: "Seán O'Brien", email: 'sean.obrien@example.com', phone: '+1 (555) 123-4567' };
  switch (formId) {
    case 'home':
      return { ...person, company: 'Smith & Sons', ...common, source: LEAD_SOURCES.home };
    case 'roi':
      return {
        companySize: '11-50',
        currentRevenue: '2M-5M',
        industry: 'technology',
        teamSize: '12',
        averageSalary: '65000',
        manualHours: '10-20',
        ...person,
        company: 'Smith & Sons',
        challenge: 'Too many manual hand-offs',
        best_time: 'morning',
        current_revenue_usd: 2_500_000,
        // Figures the browser computed; the relay recomputes them and ignores these.
        roi_revenue_increase: 1,
        roi_labor_savings: 2,
        roi_total_savings: 3,
        roi_percentage: 4,
        roi_hours_saved_weekly: 5,
        roi_uplift_percentage: 6,
        user_agent: 'Mozilla/5.0 (test)',
        referrer: '',
        ...common,
        page_url: 'http://127.0.0.1:4321/calculator',
        source: LEAD_SOURCES.roi,
      };
    case 'contact':
      return {
        ...person,
        company: '',
        service_interest: 'AI Consulting',
        message: 'We would like to automate our call handling.',
        user_agent: 'Mozilla/5.0 (test)',
        referrer: 'https://www.google.com/',
        ...common,
        page_url: 'http://127.0.0.1:4321/contact',
        source: LEAD_SOURCES.contact,
      };
    case 'landing':
      return {
        ...person,
        company: 'Smith & Sons',
        revenue: '1m-5m',
        challenge: 'Our team spends hours on scheduling.',
        bestTime: 'afternoon',
        ...common,
        page_url: 'http://127.0.0.1:4321/ai-transformation',
        source: LEAD_SOURCES.landing,
      };
  }
}
