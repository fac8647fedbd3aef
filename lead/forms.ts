// The four lead forms, one entry each: what the form is called on the wire (`source`), the rules its
// values must meet, and the payload the CRM receives for it. The relay and the browser both work
// from this table; a new form is one more entry (with its rules in validation.ts and its builder in
// crm-payload.ts). It holds the zod schemas, so the browser loads it only when a form is submitted.
import type * as z from 'zod/mini';
import {
  buildContactPayload,
  buildHomePayload,
  buildLandingPayload,
  buildRoiPayload,
  type LeadPayload,
  type PayloadContext,
} from './crm-payload.ts';
import type { RoiParameters } from './roi/engine.ts';
import { LEAD_SOURCES, type LeadFormId, type LeadSource } from './rules.ts';
import {
  contactFormSchema,
  homeFormSchema,
  landingFormSchema,
  roiFormSchema,
  validateWith,
  type LeadFormValuesById,
  type LeadValidationResult,
} from './validation.ts';

/** What a CRM payload is built from besides the values: the visit, and the ROI numbers of the build. */
export type CrmPayloadContext = PayloadContext & { readonly roiParameters: RoiParameters };

export interface LeadFormEntry<F extends LeadFormId = LeadFormId> {
  readonly form: F;
  readonly source: LeadSource;
  readonly schema: z.ZodMiniType<LeadFormValuesById[F]>;
  /** Checks raw values (a request body, the browser's form state); unknown fields are dropped. */
  validate(values: unknown): LeadValidationResult<LeadFormValuesById[F]>;
  /** The CRM's payload for checked values: the wire field names the CRM's mappings expect. */
  buildCrmPayload(values: LeadFormValuesById[F], context: CrmPayloadContext): LeadPayload;
}

function defineLeadForm<F extends LeadFormId>(
  form: F,
  schema: () => z.ZodMiniType<LeadFormValuesById[F]>,
  buildCrmPayload: (values: LeadFormValuesById[F], context: CrmPayloadContext) => LeadPayload,
): LeadFormEntry<F> {
  return {
    form,
    source: LEAD_SOURCES[form],
    // Built when first asked for (lead/validation.ts).
    get schema() {
      return schema();
    },
    validate: (values) => validateWith(schema(), values),
    buildCrmPayload,
  };
}

export const LEAD_FORMS: { readonly [F in LeadFormId]: LeadFormEntry<F> } = {
  home: defineLeadForm('home', homeFormSchema, buildHomePayload),
  roi: defineLeadForm('roi', roiFormSchema, (values, context) => buildRoiPayload(values, context, context.roiParameters)),
  contact: defineLeadForm('contact', contactFormSchema, buildContactPayload),
  landing: defineLeadForm('landing', landingFormSchema, buildLandingPayload),
};

/** The form a submission names by its `source` label, or undefined for anything else. */
export function findLeadForm(source: unknown): LeadFormEntry | undefined {
  return Object.values(LEAD_FORMS).find((entry) => entry.source === source) as LeadFormEntry | undefined;
}

export type AcceptedLead = { readonly success: true; readonly form: LeadFormId; readonly payload: LeadPayload };

/** Validates a submission's values for its form and builds the CRM payload: the relay's whole domain step. */
export function acceptLead(
  entry: LeadFormEntry,
  values: unknown,
  context: CrmPayloadContext,
): AcceptedLead | { readonly success: false; readonly fieldErrors: Record<string, string> } {
  return acceptFor(entry as LeadFormEntry<LeadFormId>, values, context);
}

function acceptFor<F extends LeadFormId>(entry: LeadFormEntry<F>, values: unknown, context: CrmPayloadContext) {
  const validation = entry.validate(values);
  if (!validation.success) return { success: false as const, fieldErrors: validation.fieldErrors };
  return { success: true as const, form: entry.form, payload: entry.buildCrmPayload(validation.data, context) };
}
