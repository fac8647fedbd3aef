// What the browser sends our relay: the form's values as the visitor typed them (after the form's
// own checks), the form's `source`, and the visit (page, user agent, referrer, attribution). The
// relay checks the values with the same rules and alone builds what the CRM receives, with the ROI
// numbers of the build; it trusts no figure from the browser. A CRM webhook reached directly (a
// static host with no relay) gets the CRM payload from crm-payload.ts instead.
import type { Attribution } from './attribution.ts';
import { CALLBACK_FIELDS } from './callback-consent.ts';
import type { PayloadContext } from './crm-payload.ts';
import { LEAD_SOURCES, type LeadFormId } from './rules.ts';

/** The visit fields of a relay submission, beside the form's values and the attribution fields. */
export type VisitFields = {
  readonly source: string;
  /** The browser's clock when sent: the relay judges fill time with it, and stamps its own time on the lead. */
  readonly submitted_at: string;
  readonly page_url: string;
  readonly user_agent: string;
  readonly referrer: string;
};

export type RelaySubmission = Attribution & VisitFields & Readonly<Record<string, unknown>>;

export function buildRelaySubmission(form: LeadFormId, values: object, context: PayloadContext): RelaySubmission {
  return {
    ...context.attribution,
    ...values,
    source: LEAD_SOURCES[form],
    submitted_at: context.now.toISOString(),
    page_url: context.pageUrl,
    user_agent: context.userAgent,
    referrer: context.referrer,
    // A ticked "call me back now" names the wording's version alone: the relay adds the text it published.
    ...(context.callbackConsent === undefined
      ? {}
      : { [CALLBACK_FIELDS.requested]: true, [CALLBACK_FIELDS.version]: context.callbackConsent.version }),
  };
}

/**
 * Whether an endpoint is our relay: a path on this site (`/api/leads`). A full URL is a CRM webhook
 * reached directly, which gets the CRM payload from the browser.
 */
export function isRelayEndpoint(endpoint: string): boolean {
  return endpoint.startsWith('/') && !endpoint.startsWith('//');
}
