// "Call me back now": an optional tick box under every lead form, worded by the site's owner (site
// settings, with a version name for each wording). The browser says only that the box was ticked and
// which version of the wording it showed; whoever builds the CRM payload (the relay, from the wording
// of its own build) adds the wording itself, word for word, with the time and the page. A text sent
// by a browser is never taken: anyone can post any words, and the record must hold what the page
// showed. The CRM's voice agent calls only a lead whose `callback_requested` is true.
import type { FieldErrors } from './rules.ts';

/** The wire names: the two a form sends, and the three more the CRM receives. */
export const CALLBACK_FIELDS = {
  requested: 'callback_requested',
  version: 'callback_consent_version',
  text: 'callback_consent_text',
  at: 'callback_consent_at',
  page: 'callback_consent_page',
} as const;

/** The value the tick box posts when ticked (a form posted without JavaScript sends it as typed). */
export const CALLBACK_TICKED_VALUE = 'yes';

/** Shown next to the field when a ticked box names a wording this site does not know (a page from an older publish). */
export const CALLBACK_UNKNOWN_VERSION_MESSAGE =
  'The call-back wording on this page has changed since it was opened. Please reload the page, read the new wording and tick the box again.';

/** What the no-JavaScript error page calls the tick box (the owner's label is not known there). */
export const CALLBACK_FIELD_LABEL = 'Call me back now';

/** One wording of the agreement: its version name and its text. */
export type CallbackConsentWording = { readonly version: string; readonly text: string };

/** The wordings a payload builder knows, by version name. */
export type CallbackWordings = ReadonlyMap<string, string>;

/** What the CRM receives about a call-back: `false` alone, or `true` with the agreement given. */
export type CallbackFields =
  | { callback_requested: false }
  | {
      callback_requested: true;
      callback_consent_text: string;
      /** When the relay took the lead in (its own clock), ISO 8601. */
      callback_consent_at: string;
      callback_consent_version: string;
      /** The page the form was on. */
      callback_consent_page: string;
    };

/** The CRM fields for a lead: the agreement given (its wording, time and page), or no call-back. */
export function describeCallback(consent: CallbackConsentWording | undefined, context: { now: Date; pageUrl: string }): CallbackFields {
  if (consent === undefined) return { callback_requested: false };
  return {
    callback_requested: true,
    callback_consent_text: consent.text,
    callback_consent_at: context.now.toISOString(),
    callback_consent_version: consent.version,
    callback_consent_page: context.pageUrl,
  };
}

/** Whether a submitted value means "ticked": the box's own value, or `true` from a JSON client. */
export function isTicked(value: unknown): boolean {
  return value === true || value === CALLBACK_TICKED_VALUE || value === 'on' || value === 'true';
}

export type CallbackRequest =
  | { readonly kind: 'none' }
  | { readonly kind: 'requested'; readonly consent: CallbackConsentWording }
  | { readonly kind: 'invalid'; readonly fields: FieldErrors };

/**
 * Reads a submission's call-back choice against the wordings the builder knows: unticked is no
 * call-back; ticked needs the version of a known wording, whose text is taken from `wordings`, never
 * from the submission.
 */
export function readCallbackRequest(fields: Readonly<Record<string, unknown>>, wordings: CallbackWordings): CallbackRequest {
  if (!isTicked(fields[CALLBACK_FIELDS.requested])) return { kind: 'none' };
  const version = fields[CALLBACK_FIELDS.version];
  const text = typeof version === 'string' ? wordings.get(version) : undefined;
  if (typeof version !== 'string' || text === undefined) {
    return { kind: 'invalid', fields: { [CALLBACK_FIELDS.version]: CALLBACK_UNKNOWN_VERSION_MESSAGE } };
  }
  return { kind: 'requested', consent: { version, text } };
}
