// One press of a form's submit button: rate-limit check first, then validation, then sending (or the demo success when no endpoint is configured). Everything the
// outside world provides is injected, so each path is a plain unit test.
import type { FieldName, LeadFormSpec, SpamFields } from './form-spec.ts';
import type { PayloadContext } from '../lead/crm-payload.ts';
import { buildRelaySubmission, isRelayEndpoint } from '../lead/relay-submission.ts';
import type { CallbackConsentWording } from '../lead/callback-consent.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { LeadFormValuesById } from '../lead/validation.ts';
import type { FieldErrors, LeadFormId } from '../lead/rules.ts';
import { idleTask } from '../ui/page/when-idle.ts';
import type * as LeadForms from '../lead/forms.ts';
import { createLeadSubmission, type LeadSubmission, type SubmitLeadResult } from './submit-lead.ts';

/**
 * The zod rules load on demand: no page needs them before a form is submitted, and they are the
 * largest part of the form code. `preloadValidation()` starts the download once a form is first used.
 * zod is set up in one task, the forms' module is evaluated in a later one at an idle moment, and the
 * rules of the form in use are built in a third (lead/validation.ts builds each form's when first
 * asked): on a slow phone any two of these in one task were a long task (~60–120 ms at 4× CPU
 * slowdown) right after the visitor's first tap in a form.
 */
let validation: Promise<typeof LeadForms> | undefined;
const loadValidation = () =>
  (validation ??= import('zod/mini')
    .then(() => idleTask())
    .then(() => import('../lead/forms.ts'))
    .catch((error: unknown) => {
      // A failed download is tried again at the next submission.
      validation = undefined;
      throw error;
    }));

/**
 * Downloads the rules and builds `form`'s, each in a task of its own, so its first submission waits for
 * neither. It starts at the next idle moment, not in the tap that asked for it: starting a download of
 * modules is itself ~20 ms at 16× CPU slowdown, which the tap would wait for.
 */
export function preloadValidation(form: LeadFormId): void {
  void idleTask()
    .then(loadValidation)
    .then((forms) => idleTask().then(() => forms.LEAD_FORMS[form].schema))
    .catch(() => {});
}

/** A failed submission kept so that pressing the button again with unchanged values resends it as is. */
export interface PendingRetry {
  readonly fingerprint: string;
  readonly submission: LeadSubmission;
}

export type SubmitOutcome<F extends LeadFormId> =
  | { readonly kind: 'rate-limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'invalid'; readonly fieldErrors: Partial<Record<FieldName<F>, string>> }
  | { readonly kind: 'sent'; readonly demo: boolean; readonly data: LeadFormValuesById[F]; readonly leadId?: string }
  | {
      readonly kind: 'failed';
      readonly data: LeadFormValuesById[F];
      readonly retry: PendingRetry;
      readonly result: Extract<SubmitLeadResult, { ok: false }>;
    };

export interface SubmitFlowDeps {
  readonly limiter: Pick<RateLimiter, 'check' | 'recordSuccess'>;
  /** PUBLIC_LEAD_ENDPOINT; '' means demo mode: nothing is sent. */
  readonly endpoint: string;
  readonly createContext: () => PayloadContext;
  readonly spam: SpamFields;
  /** The "call me back now" wording the visitor ticked; absent when the box is unticked (or not shown). */
  readonly callbackConsent?: CallbackConsentWording | undefined;
  /** The previous failed submission of this form, if any. */
  readonly retry: PendingRetry | undefined;
  readonly createKey?: () => string;
  readonly send: (submission: LeadSubmission) => Promise<SubmitLeadResult>;
  /** Called once the values passed every check, right before the request goes out (or demo success). */
  readonly onSending?: () => void;
  /**
   * Awaited before the values are checked and again before the request is built and sent, so that in
   * the browser each is a task of its own: on a slow phone they were one long task after the tap.
   */
  readonly pause?: () => Promise<void>;
}

/** What makes two submissions 'the same': the parsed values, the honeypot and the call-back choice, not the clock. */
export function fingerprintSubmission(data: object, spam: SpamFields, callbackConsent?: CallbackConsentWording): string {
  return JSON.stringify([data, spam.website, callbackConsent?.version ?? null]);
}

export async function runSubmission<F extends LeadFormId>(
  spec: LeadFormSpec<F>,
  values: Readonly<Record<FieldName<F>, string>>,
  deps: SubmitFlowDeps,
): Promise<SubmitOutcome<F>> {
  const decision = deps.limiter.check();
  if (!decision.allowed) return { kind: 'rate-limited', retryAfterSeconds: decision.retryAfterSeconds };

  const { LEAD_FORMS } = await loadValidation();
  await deps.pause?.();
  const validation = LEAD_FORMS[spec.formId].validate(values);
  if (!validation.success) return { kind: 'invalid', fieldErrors: pickFieldErrors(spec, validation.fieldErrors) };
  const data = validation.data;
  deps.onSending?.();
  await deps.pause?.();

  if (deps.endpoint === '') {
    deps.limiter.recordSuccess();
    return { kind: 'sent', demo: true, data };
  }

  const fingerprint = fingerprintSubmission(data, deps.spam, deps.callbackConsent);
  const submission =
    deps.retry?.fingerprint === fingerprint
      ? deps.retry.submission
      : createLeadSubmission({
          endpoint: deps.endpoint,
          payload: {
            ...buildRequestBody(spec, data, deps.endpoint, { ...deps.createContext(), callbackConsent: deps.callbackConsent }),
            ...deps.spam,
          },
          markAsXhr: spec.markAsXhr,
          ...(deps.createKey ? { createKey: deps.createKey } : {}),
        });
  const result = await deps.send(submission);
  if (result.ok) {
    deps.limiter.recordSuccess();
    return { kind: 'sent', demo: false, data, ...(result.leadId === undefined ? {} : { leadId: result.leadId }) };
  }
  return { kind: 'failed', data, retry: { fingerprint, submission }, result };
}

/**
 * Our relay gets the values and the visit and builds the CRM payload itself (of a ticked call-back box
 * only the version of its wording: the relay keeps the text it published); a CRM reached directly gets
 * that payload.
 */
function buildRequestBody<F extends LeadFormId>(
  spec: LeadFormSpec<F>,
  data: LeadFormValuesById[F],
  endpoint: string,
  context: PayloadContext,
): object {
  return isRelayEndpoint(endpoint) ? buildRelaySubmission(spec.formId, data, context) : spec.buildPayload(data, context);
}

/** Only errors of visible fields reach the form; the schema has no other keys for a flat object. */
function pickFieldErrors<F extends LeadFormId>(spec: LeadFormSpec<F>, fieldErrors: FieldErrors): Partial<Record<FieldName<F>, string>> {
  const picked: Partial<Record<FieldName<F>, string>> = {};
  for (const group of spec.groups) {
    for (const field of group.fields) {
      const message = fieldErrors[field.name];
      if (message !== undefined) picked[field.name] = message;
    }
  }
  return picked;
}
