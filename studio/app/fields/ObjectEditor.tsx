// A group of fields (an object in the schema): its properties in schema order under a legend, or,
// when the group is optional and absent, a button that adds it. Its fields are drawn with the
// editor's generic Field (from the editor context), so this file and FieldEditor do not import each other.
import { isRecord } from '../../../content-model/values.ts';
import { useEditor } from '../editor-context.tsx';
import { ui } from '../ui.ts';
import { FieldMessages, RequiredMark, type FieldProps } from './field-parts.tsx';
import { emptyValue } from './form-model.ts';

/** `bare`: only the fields, with no frame (a whole file, an opened block, an item of a list). */
export function ObjectEditor({ field, value, path, bare = false }: FieldProps & { bare?: boolean }) {
  const { setAt, Field } = useEditor();
  const record = isRecord(value) ? value : undefined;
  const children = (field.fields ?? []).map((child) => (
    <Field key={child.key} field={child} value={record?.[child.key]} path={[...path, child.key]} />
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
