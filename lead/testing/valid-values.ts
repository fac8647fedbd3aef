import type { LeadFormId } from '../rules.ts';
import type { LeadFormValuesById } from '../validation.ts';

// One valid set of values per form, as a visitor types them: shared by the tests of the browser's
// submit path and of the relay, so both send the same thing.

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
