// The landing page's strategy-session form; success goes to /thankyou.
import { companyField, emailField, fullNameField, LANDING_PHONE_HTML_PATTERN, phoneField, selectField, textAreaField } from './fields.ts';
import { labelGroups, type LeadFormSpec } from './form-spec.ts';
import { buildLandingPayload } from '../lead/crm-payload.ts';
import { LANDING_RATE_LIMIT } from './rate-limit.ts';
import { BEST_TIME_OPTIONS, FIELD_LIMITS, REVENUE_OPTIONS } from '../lead/rules.ts';
import { ERROR_TITLE, SUCCESS_TITLE, TOO_MANY_ATTEMPTS_TITLE, VALIDATION_ERROR_TITLE, demoToast } from './toasts.ts';

export const THANK_YOU_PATH = '/thankyou';

// The landing form's own failure wording.
export const LANDING_FAILURE_MESSAGE = "We couldn't send your request just now. Please try again in a moment.";

export const landingFormSpec: LeadFormSpec<'landing'> = {
  formId: 'landing',
  groups: labelGroups('landing', [
    {
      layout: 'full',
      fields: [
        fullNameField(),
        emailField(),
        phoneField({ pattern: LANDING_PHONE_HTML_PATTERN }),
        companyField(),
        selectField('revenue', REVENUE_OPTIONS, { placeholder: 'Select revenue' }),
        selectField('bestTime', BEST_TIME_OPTIONS, { required: false, placeholder: 'Any time' }),
        textAreaField('challenge', {
          maxLength: FIELD_LIMITS.challenge.maxLength,
          placeholder: 'What is slowing your business down today?',
        }),
      ],
    },
  ]),
  rateLimit: LANDING_RATE_LIMIT,
  markAsXhr: false,
  submitLabel: 'Claim My Free Strategy Session',
  submittingLabel: 'Sending...',
  layout: 'split',
  redirectOnSuccess: THANK_YOU_PATH,
  toasts: {
    rateLimited: () => ({
      title: TOO_MANY_ATTEMPTS_TITLE,
      description: 'Please wait a moment before submitting again.',
      variant: 'default',
    }),
    invalid: { title: VALIDATION_ERROR_TITLE, description: 'Please check the form for errors.', variant: 'default' },
    sent: { title: SUCCESS_TITLE, description: "We'll contact you within 24 hours to discuss your AI transformation.", variant: 'success' },
    demo: demoToast('Your request was checked but not sent: this site has no lead endpoint configured.'),
    failed: { title: ERROR_TITLE, description: LANDING_FAILURE_MESSAGE, variant: 'default' },
  },
  buildPayload: buildLandingPayload,
};
