// Renders any lead form from its spec and engine: a real <form method="post"> (works before
// hydration), the fields, "call me back now", the honeypot, the submit button in its states, links and consent.
import { useTheme } from '@emotion/react';
import { memo, useId, useMemo, type ReactElement } from 'react';
import type { Action } from '../generated/content-types.ts';
import { ActionRow, buttonStyle } from '../ui/ActionButton.tsx';
import { CallbackConsentBox } from './CallbackConsentBox.tsx';
import { Field } from './Field.tsx';
import type { FieldGroup, FieldName } from './form-spec.ts';
import * as styles from './form-styles.ts';
import { HONEYPOT_FIELD, LEAD_SOURCES, type LeadFormId } from '../lead/rules.ts';
import type { LeadFormEngine } from './use-lead-form.ts';
import { LEAD_FORM_ATTRIBUTE } from '../ui/page/page-markers.ts';

// The no-JavaScript post names its form the way the JSON payload does.
export const SOURCE_FIELD = 'source';

type LeadFormProps<F extends LeadFormId> = {
  engine: LeadFormEngine<F>;
  /** The id of the heading that names the form. */
  labelledBy: string;
  consent?: string | undefined;
  links?: Action[] | undefined;
};

export function LeadForm<F extends LeadFormId>({ engine, labelledBy, consent, links }: LeadFormProps<F>) {
  const theme = useTheme();
  const { spec, state, submitting } = engine;
  // A key re-renders this component: the card's style is computed once, and the parts a key does not
  // change (the footer, the tick box, the honeypot) are memoised components.
  const cardStyle = useMemo(() => styles.formCard(theme), [theme]);

  return (
    <form
      ref={engine.formRef}
      aria-labelledby={labelledBy}
      method="post"
      action={engine.endpoint || undefined}
      noValidate={engine.enhanced}
      aria-busy={submitting || undefined}
      onSubmit={engine.handleSubmit}
      css={cardStyle}
      {...{ [LEAD_FORM_ATTRIBUTE]: spec.formId }}
    >
      <input type="hidden" name={SOURCE_FIELD} value={LEAD_SOURCES[spec.formId]} />
      <FormFields spec={spec} values={state.values} errors={state.errors} onValueChange={engine.setValue} />
      {engine.callbackWording ? (
        <CallbackConsentBox wording={engine.callbackWording} ticked={state.callback} onTickedChange={engine.setCallback} />
      ) : null}
      <Honeypot value={state.website} onChange={engine.setHoneypot} />
      <FormFooter
        submitting={submitting}
        submitLabel={spec.submitLabel}
        submittingLabel={spec.submittingLabel}
        links={links}
        consent={consent}
      />
    </form>
  );
}

type FormFooterProps = {
  submitting: boolean;
  submitLabel: string;
  submittingLabel: string;
  links: Action[] | undefined;
  consent: string | undefined;
};

/** The send button in its states, the links beside it and the consent line. */
const FormFooter = memo(function FormFooter({ submitting, submitLabel, submittingLabel, links, consent }: FormFooterProps) {
  const theme = useTheme();
  return (
    <div css={styles.footerRule(theme)}>
      <div css={styles.actions(theme)}>
        <button type="submit" aria-disabled={submitting || undefined} css={[...buttonStyle(theme, 'primary'), styles.submitButton(theme)]}>
          {/* Always there, hidden until a press: its styles are in the prerendered page, so showing it
              adds no style rule to the page (which would restyle all of it) in the tap's task. */}
          <span css={styles.spinner(theme)} aria-hidden="true" hidden={!submitting} />
          {submitting ? submittingLabel : submitLabel}
        </button>
        <ActionRow actions={links} />
      </div>
      {consent ? <p css={styles.consent(theme)}>{consent}</p> : null}
    </div>
  );
});

type FormFieldsProps<F extends LeadFormId> = {
  spec: LeadFormEngine<F>['spec'];
  values: LeadFormEngine<F>['state']['values'];
  errors: LeadFormEngine<F>['state']['errors'];
  onValueChange: LeadFormEngine<F>['setValue'];
};

/**
 * The fields, group by group. Memoised: the press of the send button changes the form's state but
 * neither its values nor its messages, so the fields are not rendered again in the tap's task. A key
 * re-renders only the group it was typed in (and in it, only its field).
 */
const FormFields = memo(function FormFields<F extends LeadFormId>({ spec, values, errors, onValueChange }: FormFieldsProps<F>) {
  const theme = useTheme();
  const hasColumns = spec.groups.some((group) => group.layout === 'column');
  const renderGroup = (group: FieldGroup<FieldName<F>>) => (
    <FieldGroupView group={group} values={values} errors={errors} onValueChange={onValueChange} />
  );

  return hasColumns ? (
    <div css={styles.groupGrid(theme)}>
      {spec.groups.map((group, index) => (
        <div key={group.legend ?? index} css={styles.groupSpan(group.layout)}>
          {renderGroup(group)}
        </div>
      ))}
    </div>
  ) : (
    spec.groups.map((group, index) => <div key={group.legend ?? index}>{renderGroup(group)}</div>)
  );
}) as <F extends LeadFormId>(props: FormFieldsProps<F>) => ReactElement;

type FieldGroupProps<F extends LeadFormId> = Omit<FormFieldsProps<F>, 'spec'> & { group: FieldGroup<FieldName<F>> };

/** One group of fields; drawn again only when one of its own fields' values or messages changed. */
const FieldGroupView = memo(
  function FieldGroupView<F extends LeadFormId>({ group, values, errors, onValueChange }: FieldGroupProps<F>) {
    const theme = useTheme();
    const fields = (
      <div css={styles.fieldGrid(theme)}>
        {group.fields.map((field) => (
          <Field key={field.name} spec={field} value={values[field.name]} error={errors[field.name]} onValueChange={onValueChange} />
        ))}
      </div>
    );
    if (!group.legend) return fields;
    return (
      <fieldset css={styles.fieldset}>
        <legend css={styles.legend(theme)}>{group.legend}</legend>
        {fields}
      </fieldset>
    );
  },
  (before, after) =>
    before.group === after.group &&
    before.onValueChange === after.onValueChange &&
    before.group.fields.every(
      (field) => before.values[field.name] === after.values[field.name] && before.errors[field.name] === after.errors[field.name],
    ),
) as <F extends LeadFormId>(props: FieldGroupProps<F>) => ReactElement;

/** The honeypot: a field people never see or reach (off-screen, aria-hidden, out of the tab order). */
const Honeypot = memo(function Honeypot({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div aria-hidden="true" css={styles.honeypot}>
      <label htmlFor={id}>Website (leave this empty)</label>
      <input
        id={id}
        type="text"
        name={HONEYPOT_FIELD}
        tabIndex={-1}
        autoComplete="off"
        data-1p-ignore="true"
        data-lpignore="true"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </div>
  );
});
