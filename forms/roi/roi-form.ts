// The ROI calculator's form: contact and business columns, additional information, and
// the payload with the ROI figures computed from content/roi.yaml's parameters.
import {
  companyField,
  emailField,
  fullNameField,
  phoneField,
  ROI_PHONE_HTML_PATTERN,
  AMOUNT_STEP_USD,
  selectField,
  textAreaField,
} from '../fields.ts';
import { labelGroups, type LeadFormSpec } from '../form-spec.ts';
import { buildRoiPayload } from '../../lead/crm-payload.ts';
import { ROI_RATE_LIMIT } from '../rate-limit.ts';
import { BEST_TIME_OPTIONS, COMPANY_SIZE_OPTIONS, FIELD_LIMITS, INDUSTRY_OPTIONS, MANUAL_HOURS_OPTIONS } from '../../lead/rules.ts';
import {
  CONNECTION_ERROR_MESSAGE,
  SUCCESS_TITLE,
  TOO_MANY_ATTEMPTS_TITLE,
  VALIDATION_ERROR_TITLE,
  demoToast,
  waitSecondsMessage,
} from '../toasts.ts';
import type { RoiParameters } from '../../lead/roi/engine.ts';

/**
 * What the success toast says when the site settings give no wording: only what is true before any
 * meeting is booked. The settings' wording (`booking.roiSent`) adds the offer to pick a time.
 */
export const ROI_SENT_MESSAGE = 'Our team will call you within 24 hours.';

export function createRoiFormSpec(parameters: RoiParameters, sentMessage: string = ROI_SENT_MESSAGE): LeadFormSpec<'roi'> {
  return {
    formId: 'roi',
    groups: labelGroups('roi', [
      {
        legend: 'Contact Information',
        layout: 'column',
        fields: [
          fullNameField({ span: 'full' }),
          emailField({ span: 'full' }),
          phoneField({ span: 'full', pattern: ROI_PHONE_HTML_PATTERN }),
          companyField({ span: 'full', maxLength: FIELD_LIMITS.roiCompany.maxLength }),
        ],
      },
      {
        legend: 'Business Information',
        layout: 'column',
        fields: [
          selectField('companySize', COMPANY_SIZE_OPTIONS, { placeholder: 'Select size' }),
          selectField('industry', INDUSTRY_OPTIONS, { placeholder: 'Select industry' }),
          {
            name: 'currentRevenue',
            control: 'input',
            type: 'number',
            hint: 'Yearly, in US dollars',
            placeholder: 'e.g. 2000000',
            required: true,
            min: FIELD_LIMITS.revenueUsd.minimum,
            max: FIELD_LIMITS.revenueUsd.maximum,
            step: AMOUNT_STEP_USD,
            span: 'full',
          },
          {
            name: 'averageSalary',
            control: 'input',
            type: 'number',
            hint: 'Yearly, per person (USD)',
            placeholder: 'e.g. 60000',
            required: true,
            min: FIELD_LIMITS.salaryUsd.minimum,
            max: FIELD_LIMITS.salaryUsd.maximum,
            step: AMOUNT_STEP_USD,
            span: 'half',
          },
          {
            name: 'teamSize',
            control: 'input',
            type: 'number',
            hint: 'People doing manual work',
            placeholder: 'e.g. 10',
            required: true,
            min: FIELD_LIMITS.teamSize.minimum,
            max: FIELD_LIMITS.teamSize.maximum,
            step: 1,
            span: 'half',
          },
          selectField('manualHours', MANUAL_HOURS_OPTIONS, {
            placeholder: 'Select hours per person',
            span: 'full',
          }),
        ],
      },
      {
        legend: 'Additional Information',
        layout: 'full',
        fields: [
          selectField('best_time', BEST_TIME_OPTIONS, { required: false, placeholder: 'Any time', span: 'full' }),
          textAreaField('challenge', {
            required: false,
            maxLength: FIELD_LIMITS.challenge.maxLength,
            placeholder: 'Which process costs your team the most time?',
          }),
        ],
      },
    ]),
    rateLimit: ROI_RATE_LIMIT,
    markAsXhr: true,
    submitLabel: 'Get My ROI Analysis & Book Session',
    submittingLabel: 'Calculating Your ROI...',
    layout: 'stacked',
    toasts: {
      rateLimited: (seconds) => ({ title: TOO_MANY_ATTEMPTS_TITLE, description: waitSecondsMessage(seconds), variant: 'default' }),
      invalid: { title: VALIDATION_ERROR_TITLE, description: 'Please check the form and correct any errors.', variant: 'default' },
      sent: { title: SUCCESS_TITLE, description: sentMessage, variant: 'success' },
      demo: demoToast('Your ROI analysis is ready. Nothing was sent: this site has no lead endpoint configured.'),
      failed: { title: 'Submission Error', description: CONNECTION_ERROR_MESSAGE, variant: 'default' },
    },
    buildPayload: (values, context) => buildRoiPayload(values, context, parameters),
  };
}
