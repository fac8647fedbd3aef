// The contact page's form; `?service=` preselects the service.
import { emailField, fullNameField, phoneField, companyField, selectField, textAreaField } from './fields.ts';
import { labelGroups, type LeadFormSpec } from './form-spec.ts';
import { buildContactPayload } from '../lead/crm-payload.ts';
import { CONTACT_RATE_LIMIT } from './rate-limit.ts';
import { FIELD_LIMITS, SERVICE_INTEREST_OPTIONS } from '../lead/rules.ts';
import { ERROR_TITLE, RATE_LIMIT_EXCEEDED_TITLE, VALIDATION_ERROR_TITLE, demoToast, waitSecondsMessage } from './toasts.ts';

// The contact form's own failure wording: it says the values are kept.
export const CONTACT_FAILURE_MESSAGE =
  "We couldn't send your message just now. Please try again in a moment; everything you typed is still here.";

// The contact form shows no bounds: no minimum name or phone length beyond 'Required'.
export const contactFormSpec: LeadFormSpec<'contact'> = {
  formId: 'contact',
  groups: labelGroups('contact', [
    {
      layout: 'full',
      fields: [
        fullNameField({ minLength: undefined }),
        emailField(),
        phoneField({ minLength: undefined }),
        companyField({ required: false, minLength: undefined }),
        selectField('service_interest', SERVICE_INTEREST_OPTIONS, { placeholder: 'Select a service', span: 'full' }),
        textAreaField('message', {
          minLength: FIELD_LIMITS.message.minLength,
          maxLength: FIELD_LIMITS.message.maxLength,
          rows: 5,
          placeholder: 'What would you like to improve?',
        }),
      ],
    },
  ]),
  rateLimit: CONTACT_RATE_LIMIT,
  markAsXhr: false,
  submitLabel: 'Send Message',
  submittingLabel: 'Sending...',
  layout: 'stacked',
  prefillFromQuery: { service: 'service_interest' },
  toasts: {
    rateLimited: (seconds) => ({ title: RATE_LIMIT_EXCEEDED_TITLE, description: waitSecondsMessage(seconds), variant: 'destructive' }),
    invalid: { title: VALIDATION_ERROR_TITLE, description: 'Please check the form fields and try again.', variant: 'default' },
    sent: {
      title: 'Message sent successfully!',
      description: "Thank you for contacting us. We'll get back to you within 24 hours.",
      variant: 'success',
    },
    demo: demoToast('Your message was checked but not sent: this site has no lead endpoint configured.'),
    failed: { title: ERROR_TITLE, description: CONTACT_FAILURE_MESSAGE, variant: 'destructive' },
  },
  buildPayload: buildContactPayload,
};
