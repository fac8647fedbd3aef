// What every one-value control (a text box, a number, a checkbox, a list of choices) shares: its DOM
// id, the ids of its help and of the build's message about it (tied to it with aria-describedby),
// aria-invalid and aria-required, how it writes its value, and the label and help drawn round it.
// Written once here, so every generated control is accessible the same way.
import { useId, type ReactNode } from 'react';
import type { DataPath } from '../editor-context.tsx';
import { useEditor } from '../editor-context.tsx';
import { ui } from '../ui.ts';
import { fieldId, Messages, RequiredMark } from './field-parts.tsx';
import type { Field } from './form-model.ts';

/** The attributes a control element spreads onto itself. */
export type ControlAttributes = {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
  'aria-required': true | undefined;
};

export type Control = {
  attributes: ControlAttributes;
  helpId: string;
  errorId: string;
  /** The build's messages about this field. */
  messages: string[];
  /** Advice about the field, tied to it by aria-describedby, never marking it invalid. */
  warnings: string[];
  warningId: string;
  /** Writes the field's value (`undefined` removes the property). */
  set(value: unknown): void;
  /** Writes a text; an optional property emptied is removed, as a person would delete the line. */
  setText(text: string): void;
};

export function useControl(field: Field, path: DataPath): Control {
  const { setAt, issuesAt, warningsAt } = useEditor();
  const id = fieldId(path);
  const helpId = useId();
  const messages = issuesAt(path);
  const warnings = warningsAt(path);
  const errorId = `${id}-error`;
  const warningId = `${id}-warning`;
  const describedBy =
    [messages.length ? errorId : '', warnings.length ? warningId : '', field.help ? helpId : ''].filter(Boolean).join(' ') || undefined;
  return {
    attributes: {
      id,
      'aria-describedby': describedBy,
      'aria-invalid': messages.length > 0 || undefined,
      'aria-required': field.required || undefined,
    },
    helpId,
    errorId,
    messages,
    warningId,
    warnings,
    set: (value) => setAt(path, value),
    setText: (text) => setAt(path, text === '' && !field.required ? undefined : text),
  };
}

/** A control under its label (with the required mark) and help, with the build's messages below. */
export function LabelledControl({ field, control, children }: { field: Field; control: Control; children: ReactNode }) {
  return (
    <div css={ui.field}>
      <label htmlFor={control.attributes.id} css={ui.label}>
        {field.label}
        {field.required && <RequiredMark />}
      </label>
      <Help field={field} control={control} />
      {children}
      <Messages id={control.errorId} messages={control.messages} />
      <Messages id={control.warningId} messages={control.warnings} tone="warning" />
    </div>
  );
}

/** The schema's description of the field, which the control's aria-describedby points at. */
export function Help({ field, control }: { field: Field; control: Control }) {
  if (!field.help) return null;
  return (
    <p id={control.helpId} css={ui.help}>
      {field.help}
    </p>
  );
}
