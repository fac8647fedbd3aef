// A group of fields (an object in the schema): its properties in schema order under a legend, or,
// when the group is optional and absent, a button that adds it. Its fields are drawn with the
// editor's generic Field (from the editor context), so this file and FieldEditor do not import each other.
// Content comes first: the properties the schema puts in a section (`ui: { section }`) are drawn in
// closed parts of their own, a page's settings above its content and a group's advanced options below it.
import type { ReactNode } from 'react';
import { isRecord } from '../../../content-model/values.ts';
import { useEditor, type DataPath } from '../editor-context.tsx';
import { ui } from '../ui.ts';
import { Disclosure, listOfLabels } from './Disclosure.tsx';
import { FieldMessages, RequiredMark, type FieldProps } from './field-parts.tsx';
import { emptyValue, type Field } from './form-model.ts';

/**
 * `bare`: only the fields, with no frame (a whole file, an opened block, an item of a list).
 * `settingsExtra`: shown at the end of the page settings (how the page looks in search results).
 */
export function ObjectEditor({
  field,
  value,
  path,
  bare = false,
  settingsExtra,
}: FieldProps & { bare?: boolean; settingsExtra?: ReactNode }) {
  const { setAt, Field } = useEditor();
  const record = isRecord(value) ? value : undefined;
  const draw = (child: Field) => <Field key={child.key} field={child} value={record?.[child.key]} path={[...path, child.key]} />;
  const children = <Sections fields={field.fields ?? []} path={path} draw={draw} settingsExtra={settingsExtra} />;
  if (bare) return children;
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

function Sections({
  fields,
  path,
  draw,
  settingsExtra,
}: {
  fields: readonly Field[];
  path: DataPath;
  draw: (field: Field) => ReactNode;
  settingsExtra: ReactNode;
}) {
  const { countIssuesUnder } = useEditor();
  const settings = fields.filter((f) => f.section === 'settings' && f.constant === undefined);
  const advanced = fields.filter((f) => f.section === 'advanced' && f.constant === undefined);
  const content = fields.filter((f) => f.section === undefined || f.constant !== undefined);
  const mistakesIn = (part: readonly Field[]) => part.reduce((sum, f) => sum + countIssuesUnder([...path, f.key]), 0);
  return (
    <>
      {settings.length > 0 && (
        <Disclosure title="Page settings" holds={listOfLabels(settings.map((f) => f.label))} mistakes={mistakesIn(settings)}>
          {settings.map(draw)}
          {settingsExtra}
        </Disclosure>
      )}
      {content.map(draw)}
      {advanced.length > 0 && (
        <Disclosure title="Advanced" holds={listOfLabels(advanced.map((f) => f.label))} mistakes={mistakesIn(advanced)}>
          {advanced.map(draw)}
        </Disclosure>
      )}
    </>
  );
}
