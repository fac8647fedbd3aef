// What a lead form is: its fields, its rate policy, its toasts and how it
// builds its payload. The engine (use-lead-form.ts) runs any of them; the schema and the wire
// `source` come from the shared definitions in schemas.ts, never from here.
import type { PayloadContext } from '../lead/crm-payload.ts';
import type { RateLimitPolicy } from './rate-limit.ts';
import type { LeadFormValuesById } from '../lead/validation.ts';
import { FORM_FIELD_LABELS, type LeadFormId, type SelectOption } from '../lead/rules.ts';

export type FieldName<F extends LeadFormId> = keyof LeadFormValuesById[F] & string;

/** One visible field. `name` is the wire name, so the no-JavaScript post carries the payload's names. */
export interface FieldSpec<N extends string = string> {
  readonly name: N;
  /** The visible label; tests and assistive technology find fields by these exact names. */
  readonly label: string;
  readonly control: 'input' | 'select' | 'textarea';
  readonly type?: 'text' | 'email' | 'tel' | 'number';
  readonly autoComplete?: string;
  /** A short help line under the label, tied to the field with aria-describedby. */
  readonly hint?: string;
  readonly placeholder?: string;
  // Native constraints mirroring the zod schema, so the form still validates before hydration.
  readonly required: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An HTML pattern (implicitly anchored, compiled with the `v` flag by browsers). */
  readonly pattern?: string;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly options?: readonly SelectOption[];
  readonly rows?: number;
  /** Half-width fields pair up from the medium breakpoint; full-width ones take the row. */
  readonly span: 'half' | 'full';
}

/** A field before its label is looked up in the forms' label table (labelGroups). */
export type UnlabelledField<N extends string = string> = Omit<FieldSpec<N>, 'label'>;

export interface FieldGroup<N extends string = string> {
  /** A fieldset legend; groups without one render their fields directly. */
  readonly legend?: string;
  /** 'column' groups sit side by side on wide screens (the ROI form's two columns). */
  readonly layout: 'column' | 'full';
  readonly fields: readonly FieldSpec<N>[];
}

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastSpec {
  readonly title: string;
  readonly description: string;
  readonly variant: ToastVariant;
}

/** Each form's toast titles and messages. */
export interface FormToasts {
  readonly rateLimited: (retryAfterSeconds: number) => ToastSpec;
  readonly invalid: ToastSpec;
  readonly sent: ToastSpec;
  readonly demo: ToastSpec;
  readonly failed: ToastSpec;
}

/** Extra payload fields every browser submission carries for the relay's spam judgement. */
export interface SpamFields {
  readonly website: string;
  readonly form_shown_at?: number;
}

export interface LeadFormSpec<F extends LeadFormId = LeadFormId> {
  readonly formId: F;
  readonly groups: readonly FieldGroup<FieldName<F>>[];
  readonly rateLimit: RateLimitPolicy;
  /** The home and ROI forms send `X-Requested-With: XMLHttpRequest`. */
  readonly markAsXhr: boolean;
  readonly submitLabel: string;
  readonly submittingLabel: string;
  readonly toasts: FormToasts;
  /** The header and footer of the form sit beside it ('split') or above it ('stacked') on wide screens. */
  readonly layout: 'split' | 'stacked';
  /** Query parameters that preselect a field, e.g. `?service=` → service_interest (only listed option values). */
  readonly prefillFromQuery?: Readonly<Record<string, FieldName<F>>>;
  /** Where the browser goes after a successful submission (client-side). */
  readonly redirectOnSuccess?: string;
  readonly buildPayload: (values: LeadFormValuesById[F], context: PayloadContext) => object;
}

/** A form's groups with each field's label taken from the one label table (lead/rules.ts). */
export function labelGroups<F extends LeadFormId>(
  form: F,
  groups: readonly (Omit<FieldGroup<FieldName<F>>, 'fields'> & { readonly fields: readonly UnlabelledField<FieldName<F>>[] })[],
): FieldGroup<FieldName<F>>[] {
  const labels: Readonly<Record<string, string>> = FORM_FIELD_LABELS[form];
  return groups.map((group) => ({
    ...group,
    fields: group.fields.map((field) => {
      const label = labels[field.name];
      if (label === undefined) throw new Error(`${form} form: field "${field.name}" has no label in FORM_FIELD_LABELS`);
      return { ...field, label };
    }),
  }));
}

export function listFields<F extends LeadFormId>(spec: LeadFormSpec<F>): readonly FieldSpec<FieldName<F>>[] {
  return spec.groups.flatMap((group) => group.fields);
}

export type FormValues<F extends LeadFormId> = Record<FieldName<F>, string>;

/** Every field empty: the form's initial and post-success state. */
export function emptyValues<F extends LeadFormId>(spec: LeadFormSpec<F>): FormValues<F> {
  return Object.fromEntries(listFields(spec).map((field) => [field.name, ''])) as FormValues<F>;
}

/** The query value when it is one of the field's options; anything else preselects nothing. */
export function readPrefill<F extends LeadFormId>(spec: LeadFormSpec<F>, search: string): Partial<FormValues<F>> {
  const prefill: Partial<FormValues<F>> = {};
  if (!spec.prefillFromQuery) return prefill;
  const params = new URLSearchParams(search);
  const fields = listFields(spec);
  for (const [param, fieldName] of Object.entries(spec.prefillFromQuery) as [string, FieldName<F>][]) {
    const value = params.get(param);
    const field = fields.find((candidate) => candidate.name === fieldName);
    if (value === null || !field?.options?.some((option) => option.value === value)) continue;
    prefill[fieldName] = value;
  }
  return prefill;
}
