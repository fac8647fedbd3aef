// The controls for one value: a line of text (shown read-only, with why, where the file's kind says
// it never changes: the home page's address), a text area, Markdown, a date, a number, a
// checkbox and a list of choices. Each writes the value as the schema wants it (a number as a
// number, a choice as the enum's own value) and gets its label, help and messages from control-parts.
import { useEditor } from '../editor-context.tsx';
import { ui } from '../ui.ts';
import { Help, LabelledControl, useControl } from './control-parts.tsx';
import { Messages, type FieldProps } from './field-parts.tsx';
import type { Field } from './form-model.ts';
import { MarkdownEditor } from './MarkdownEditor.tsx';

export function TextField(props: FieldProps) {
  return <OneLine {...props} />;
}

function OneLine({ field, value, path }: FieldProps) {
  const { fixedReason } = useEditor();
  const fixed = fixedReason?.(path);
  const control = useControl(fixed ? { ...field, help: fixed } : field, path);
  return (
    <LabelledControl field={fixed ? { ...field, help: fixed } : field} control={control}>
      <input
        css={[ui.input, fixed && ui.readOnlyInput]}
        {...control.attributes}
        type="text"
        readOnly={fixed !== undefined}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(event) => {
          if (fixed === undefined) control.setText(event.target.value);
        }}
      />
    </LabelledControl>
  );
}

export function MultilineField({ field, value, path }: FieldProps) {
  const control = useControl(field, path);
  return (
    <LabelledControl field={field} control={control}>
      <textarea
        css={[ui.input, ui.textarea]}
        {...control.attributes}
        rows={4}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => control.setText(event.target.value)}
      />
    </LabelledControl>
  );
}

export function MarkdownField({ field, value, path }: FieldProps) {
  const control = useControl(field, path);
  return (
    <LabelledControl field={field} control={control}>
      <MarkdownEditor {...control.attributes} value={typeof value === 'string' ? value : ''} onChange={control.setText} />
    </LabelledControl>
  );
}

export function DateField({ field, value, path }: FieldProps) {
  const control = useControl(field, path);
  return (
    <LabelledControl field={field} control={control}>
      <input
        css={ui.input}
        {...control.attributes}
        type="date"
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => control.setText(event.target.value)}
      />
    </LabelledControl>
  );
}

/** A number, or a whole number when the schema says integer; emptied, the property is removed. */
export function NumberField({ field, value, path }: FieldProps) {
  const control = useControl(field, path);
  const whole = field.kind === 'integer';
  return (
    <LabelledControl field={field} control={control}>
      <input
        css={ui.input}
        {...control.attributes}
        type="number"
        inputMode={whole ? 'numeric' : 'decimal'}
        step={whole ? 1 : 'any'}
        value={typeof value === 'number' ? value : ''}
        onChange={(event) => control.set(event.target.value === '' ? undefined : Number(event.target.value))}
      />
    </LabelledControl>
  );
}

/** A yes/no: the checkbox inside its label, the label beside it. */
export function CheckboxField({ field, value, path }: FieldProps) {
  const control = useControl(field, path);
  return (
    <div css={ui.field}>
      <label css={ui.checkboxLabel}>
        <input
          type="checkbox"
          {...control.attributes}
          checked={value === true}
          onChange={(event) => control.set(checkboxValue(field, event.target.checked))}
        />
        {field.label}
      </label>
      <Help field={field} control={control} />
      <Messages id={control.errorId} messages={control.messages} />
    </div>
  );
}

/** One of the schema's values, by label; an optional one can go back to the default (removed). */
export function ChoiceField({ field, value, path }: FieldProps) {
  const control = useControl(field, path);
  const choose = (text: string) => {
    if (text === '') return control.set(undefined);
    const choice = field.choices?.find((c) => String(c.value) === text);
    control.set(choice ? choice.value : text);
  };
  return (
    <LabelledControl field={field} control={control}>
      <select
        css={ui.input}
        {...control.attributes}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(event) => choose(event.target.value)}
      >
        {(!field.required || value === undefined) && <option value="">{field.required ? 'Choose…' : '(default)'}</option>}
        {(field.choices ?? []).map((choice) => (
          <option key={String(choice.value)} value={String(choice.value)}>
            {choice.label}
          </option>
        ))}
      </select>
    </LabelledControl>
  );
}

/**
 * What a checkbox writes: `true` when ticked; when cleared, an optional property whose default is
 * false (or unset) is removed, as a person would delete the line, rather than written as `false`.
 */
function checkboxValue(field: Field, checked: boolean): boolean | undefined {
  if (checked) return true;
  return field.required || field.default === true ? false : undefined;
}
