// One generic editor for any field the schemas describe: the kind decides the control; the label,
// help text, required mark and the build's message for that field are wired in one place, so every
// generated form is accessible the same way.
import { useId, type ReactNode } from 'react';
import { emptyValue } from './form-model.ts';
import { useEditor } from '../editor-context.tsx';
import { fieldId, FieldMessages, Messages, RequiredMark, type FieldProps } from './field-parts.tsx';
import { ImageField } from './ImageField.tsx';
import { ListEditor } from './ListEditor.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { ui } from '../ui.ts';
import { isRecord } from '../../../content-model/values.ts';

export function FieldEditor({ field, value, path }: FieldProps) {
  if (field.constant !== undefined) return null; // a block's `type`: shown as the block's title instead
  switch (field.kind) {
    case 'object':
      return <ObjectEditor field={field} value={value} path={path} />;
    case 'list':
    case 'blocks':
      return <ListEditor field={field} value={value} path={path} />;
    case 'image':
      return <ImageField field={field} value={value} path={path} />;
    default:
      return <ScalarEditor field={field} value={value} path={path} />;
  }
}

export function ObjectEditor({ field, value, path, bare = false }: FieldProps & { bare?: boolean }) {
  const { setAt } = useEditor();
  const record = isRecord(value) ? value : undefined;
  const children = (field.fields ?? []).map((child) => (
    <FieldEditor key={child.key} field={child} value={record?.[child.key]} path={[...path, child.key]} />
  ));
  if (bare) return <>{children}</>;
  if (!record && !field.required) {
    return (
      <div css={ui.group}>
        <span css={ui.groupTitle}>{field.label}</span>
        {field.help && <p css={ui.help}>{field.help}</p>}
        <button type="button" css={ui.secondaryButton} onClick={() => setAt(path, emptyValue(field))}>
          Add {field.label.toLowerCase()}
        </button>
      </div>
    );
  }
  return (
    <fieldset css={ui.group}>
      <legend css={ui.groupTitle}>
        {field.label}
        {field.required && <RequiredMark />}
      </legend>
      {field.help && <p css={ui.help}>{field.help}</p>}
      <FieldMessages path={path} />
      {children}
      {!field.required && (
        <button type="button" css={ui.linkButton} onClick={() => setAt(path, undefined)}>
          Remove {field.label.toLowerCase()}
        </button>
      )}
    </fieldset>
  );
}

function ScalarEditor({ field, value, path }: FieldProps) {
  const { setAt, issuesAt } = useEditor();
  const id = fieldId(path);
  const helpId = useId();
  const messages = issuesAt(path);
  const errorId = `${id}-error`;
  const describedBy = [messages.length ? errorId : '', field.help ? helpId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': messages.length > 0 || undefined,
    'aria-required': field.required || undefined,
  };
  const setText = (text: string) => setAt(path, text === '' && !field.required ? undefined : text);

  let control: ReactNode;
  switch (field.kind) {
    case 'boolean':
      return (
        <div css={ui.field}>
          <label css={ui.checkboxLabel}>
            <input
              type="checkbox"
              {...common}
              checked={value === true}
              onChange={(event) => setAt(path, checkboxValue(field, event.target.checked))}
            />
            {field.label}
          </label>
          {field.help && (
            <p id={helpId} css={ui.help}>
              {field.help}
            </p>
          )}
          <Messages id={errorId} messages={messages} />
        </div>
      );
    case 'choice':
      control = (
        <select
          css={ui.input}
          {...common}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(event) => setChoice(event.target.value)}
        >
          {(!field.required || value === undefined) && <option value="">{field.required ? 'Choose…' : '(default)'}</option>}
          {(field.choices ?? []).map((choice) => (
            <option key={String(choice.value)} value={String(choice.value)}>
              {choice.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
    case 'integer':
      control = (
        <input
          css={ui.input}
          {...common}
          type="number"
          inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
          step={field.kind === 'integer' ? 1 : 'any'}
          value={typeof value === 'number' ? value : ''}
          onChange={(event) => setAt(path, event.target.value === '' ? undefined : Number(event.target.value))}
        />
      );
      break;
    case 'markdown':
      control = <MarkdownEditor {...common} value={typeof value === 'string' ? value : ''} onChange={setText} />;
      break;
    case 'multiline':
      control = (
        <textarea
          css={[ui.input, ui.textarea]}
          {...common}
          rows={4}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => setText(event.target.value)}
        />
      );
      break;
    case 'date':
      control = (
        <input
          css={ui.input}
          {...common}
          type="date"
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => setText(event.target.value)}
        />
      );
      break;
    default:
      control = (
        <input
          css={ui.input}
          {...common}
          type="text"
          placeholder={field.kind === 'link' ? '/contact, https://…, mailto:…, booking' : undefined}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(event) => setText(event.target.value)}
        />
      );
  }

  function setChoice(text: string) {
    if (text === '') return setAt(path, undefined);
    const choice = field.choices?.find((c) => String(c.value) === text);
    setAt(path, choice ? choice.value : text);
  }

  return (
    <div css={ui.field}>
      <label htmlFor={id} css={ui.label}>
        {field.label}
        {field.required && <RequiredMark />}
      </label>
      {field.help && (
        <p id={helpId} css={ui.help}>
          {field.help}
        </p>
      )}
      {control}
      <Messages id={errorId} messages={messages} />
    </div>
  );
}

/**
 * What a checkbox writes: `true` when ticked; when cleared, an optional property whose default is
 * false (or unset) is removed, as a person would delete the line, rather than written as `false`.
 */
function checkboxValue(field: FieldProps['field'], checked: boolean): boolean | undefined {
  if (checked) return true;
  return field.required || field.default === true ? false : undefined;
}
