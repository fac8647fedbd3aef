// The four lead forms as a visitor meets them, for the suites that do the same thing with each form
// (forms-relay.spec.ts: the main path end to end; forms-failures.spec.ts: the relay failing). What
// only one form does stays in its own spec (forms-home.spec.ts, …).
import { expect, type Locator, type Page } from '@playwright/test';
import { waitForHydration } from './support.ts';

export type FieldEntry = readonly [label: string, wireName: string, value: string, control: 'fill' | 'select'];
export type ToastVariant = 'default' | 'destructive';

export type LeadFormPage = {
  readonly form: string;
  readonly path: string;
  readonly heading: string;
  readonly button: string;
  readonly source: string;
  /** Valid values, as typed; the e-mail is filled in per test (each test uses its own address). */
  readonly fields: readonly FieldEntry[];
  /** What the visitor sees once the relay has taken the lead. */
  readonly confirm: (page: Page) => Promise<void>;
  /** The toast when the lead could not be sent (the relay answered an error, or never answered). */
  readonly failure: { readonly title: string; readonly message: string; readonly variant: ToastVariant };
};

const CONNECTION_ERROR = 'There was an error submitting your form. Please check your connection and try again, or contact us directly.';
const toast = (page: Page, title: string) => expect(page.locator('[data-sonner-toast]').filter({ hasText: title }).first()).toBeVisible();

export const LEAD_FORM_PAGES: readonly LeadFormPage[] = [
  {
    form: 'home',
    path: '/',
    heading: 'Get Your Free Consultation',
    button: 'Get Started Now',
    source: 'Homepage Simple Lead Form',
    fields: [
      ['Full Name', 'name', "Seán O'Brien", 'fill'],
      ['Business Email', 'email', '', 'fill'],
      ['Phone Number', 'phone', '+1 (512) 555-0147', 'fill'],
      ['Company Name', 'company', 'Smith & Sons', 'fill'],
    ],
    confirm: (page) => toast(page, 'Success!'),
    failure: { title: 'Error', message: CONNECTION_ERROR, variant: 'default' },
  },
  {
    form: 'ROI',
    path: '/calculator',
    heading: 'Get Your Personalized ROI Analysis',
    button: 'Get My ROI Analysis & Book Session',
    source: 'AI ROI Calculator + Lead Form',
    fields: [
      ['Full Name', 'name', 'Ada Lovelace', 'fill'],
      ['Business Email', 'email', '', 'fill'],
      ['Phone Number', 'phone', '(512) 555-0147', 'fill'],
      ['Company Name', 'company', 'Analytical Engines', 'fill'],
      ['Company Size', 'companySize', '11-50', 'select'],
      ['Annual Revenue', 'currentRevenue', '2000000', 'fill'],
      ['Industry', 'industry', 'technology', 'select'],
      ['Team Size', 'teamSize', '10', 'fill'],
      ['Average Salary', 'averageSalary', '60000', 'fill'],
      ['Manual Hours per Week', 'manualHours', '10-20', 'select'],
      ['Best Time to Contact', 'best_time', 'morning', 'select'],
      ['Biggest Challenge', 'challenge', 'Data: 3 systems & no "single" view', 'fill'],
    ],
    confirm: (page) => expect(page.getByRole('heading', { name: 'Success! Your ROI Analysis is Ready' })).toBeVisible(),
    failure: { title: 'Submission Error', message: CONNECTION_ERROR, variant: 'default' },
  },
  {
    form: 'contact',
    path: '/contact',
    heading: 'Send Us a Message',
    button: 'Send Message',
    source: 'Contact Page Form',
    fields: [
      ['Full Name', 'name', 'Grace Hopper', 'fill'],
      ['Email', 'email', '', 'fill'],
      ['Phone', 'phone', '512-555-0147', 'fill'],
      ['Company', 'company', 'Compilers & Co.', 'fill'],
      ['Service Interest', 'service_interest', 'Both Services', 'select'],
      ['Message', 'message', 'onboarding=2 weeks, 5 < 6 > 4: please call.', 'fill'],
    ],
    confirm: (page) => toast(page, 'Message sent successfully!'),
    failure: {
      title: 'Error',
      message: "We couldn't send your message just now. Please try again in a moment; everything you typed is still here.",
      variant: 'destructive',
    },
  },
  {
    form: 'landing',
    path: '/ai-transformation',
    heading: 'Claim Your Free 30-Minute Strategy Session',
    button: 'Claim My Free Strategy Session',
    source: 'AI Transformation Landing Page',
    fields: [
      ['Full Name', 'name', 'Katherine Johnson', 'fill'],
      ['Business Email', 'email', '', 'fill'],
      ['Phone Number', 'phone', '+1 512 555 0147', 'fill'],
      ['Company Name', 'company', 'Orbital Mechanics', 'fill'],
      ['Annual Revenue', 'revenue', '5m-10m', 'select'],
      ['Biggest Challenge', 'challenge', 'Scheduling eats our week.', 'fill'],
      ['Best Time to Call', 'bestTime', 'evening', 'select'],
    ],
    confirm: (page) => expect(page).toHaveURL(/\/thankyou$/),
    failure: { title: 'Error', message: "We couldn't send your request just now. Please try again in a moment.", variant: 'default' },
  },
];

/** The form's valid values with this address as its e-mail. */
export function valuesWithEmail(page: LeadFormPage, email: string): readonly FieldEntry[] {
  return page.fields.map(([label, wire, value, control]) => [label, wire, wire === 'email' ? email : value, control] as const);
}

/** Opens the form's page (after hydration) and fills every field; resolves to the form. */
export async function openAndFill(page: Page, form: LeadFormPage, values: readonly FieldEntry[], query = ''): Promise<Locator> {
  await page.goto(`${form.path}${query}`);
  await waitForHydration(page);
  const locator = page.getByRole('form', { name: form.heading });
  for (const [label, , value, control] of values) {
    const field = locator.getByLabel(label, { exact: true });
    if (control === 'select') await field.selectOption(value);
    else await field.fill(value);
  }
  return locator;
}
