// The simple consultation form (name, business email, phone, company).
import { companyField, emailField, fullNameField, phoneField } from './fields.ts';
import { labelGroups, type LeadFormSpec } from './form-spec.ts';
import { buildHomePayload } from '../lead/crm-payload.ts';
import { HOME_RATE_LIMIT } from './rate-limit.ts';
import {
  CONNECTION_ERROR_MESSAGE,
  ERROR_TITLE,
  RATE_LIMIT_EXCEEDED_TITLE,
  SUCCESS_TITLE,
  VALIDATION_ERROR_TITLE,
  demoToast,
  waitSecondsMessage,
} from './toasts.ts';

export const homeFormSpec: LeadFormSpec<'home'> = {
  formId: 'home',
  groups: labelGroups('home', [{ layout: 'full', fields: [fullNameField(), emailField(), phoneField(), companyField()] }]),
  rateLimit: HOME_RATE_LIMIT,
  markAsXhr: true,
  submitLabel: 'Get Started Now',
  submittingLabel: 'Sending...',
  layout: 'split',
  toasts: {
    rateLimited: (seconds) => ({ title: RATE_LIMIT_EXCEEDED_TITLE, description: waitSecondsMessage(seconds), variant: 'destructive' }),
    invalid: { title: VALIDATION_ERROR_TITLE, description: 'Please check the form fields and try again.', variant: 'default' },
    sent: { title: SUCCESS_TITLE, description: "We'll be in touch soon to discuss your AI strategy.", variant: 'success' },
    demo: demoToast('Your details were checked but not sent: this site has no lead endpoint configured.'),
    failed: { title: ERROR_TITLE, description: CONNECTION_ERROR_MESSAGE, variant: 'default' },
  },
  buildPayload: buildHomePayload,
};
