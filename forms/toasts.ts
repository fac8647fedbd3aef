// Toast wording shared by several forms, and the outcome → toast mapping the engine uses.
import type { FormToasts, ToastSpec } from './form-spec.ts';

export const VALIDATION_ERROR_TITLE = 'Validation Error';
export const RATE_LIMIT_EXCEEDED_TITLE = 'Rate limit exceeded';
export const TOO_MANY_ATTEMPTS_TITLE = 'Too many attempts';
export const SUCCESS_TITLE = 'Success!';
export const ERROR_TITLE = 'Error';

// The simple and ROI forms' message for a non-OK response or a network failure.
export const CONNECTION_ERROR_MESSAGE =
  'There was an error submitting your form. Please check your connection and try again, or contact us directly.';

// With no lead endpoint the ROI form says this; the other forms reuse the title.
export const DEMO_TITLE = 'Demo Mode Success!';

/** 'Please wait {n} seconds before submitting again.' */
export function waitSecondsMessage(seconds: number): string {
  return `Please wait ${seconds} seconds before submitting again.`;
}

export function demoToast(description: string): ToastSpec {
  return { title: DEMO_TITLE, description, variant: 'success' };
}

export type ToastOutcome =
  | { readonly kind: 'rate-limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'sent'; readonly demo: boolean }
  | { readonly kind: 'failed' };

export function toastFor(toasts: FormToasts, outcome: ToastOutcome): ToastSpec {
  switch (outcome.kind) {
    case 'rate-limited':
      return toasts.rateLimited(outcome.retryAfterSeconds);
    case 'invalid':
      return toasts.invalid;
    case 'sent':
      return outcome.demo ? toasts.demo : toasts.sent;
    case 'failed':
      return toasts.failed;
  }
}
