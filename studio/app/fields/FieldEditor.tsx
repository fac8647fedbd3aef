// One generic editor for any field the schemas describe: the field's kind picks its editor from
// FIELD_EDITORS, one entry per kind, so a new kind is a type error until it has an editor. Label,
// help, required mark and the build's messages are wired by each editor's shared parts, so every
// generated form is accessible the same way.
import type { ComponentType } from 'react';
import type { FieldProps } from './field-parts.tsx';
import type { FieldKind } from './form-model.ts';
import { ImageField, PictureField } from './ImageField.tsx';
import { LinkField } from './LinkField.tsx';
import { ListEditor } from './ListEditor.tsx';
import { ObjectEditor } from './ObjectEditor.tsx';
import { CheckboxField, ChoiceField, DateField, MarkdownField, MultilineField, NumberField, TextField } from './ScalarFields.tsx';

export const FIELD_EDITORS: Readonly<Record<FieldKind, ComponentType<FieldProps>>> = {
  text: TextField,
  link: LinkField,
  multiline: MultilineField,
  markdown: MarkdownField,
  date: DateField,
  number: NumberField,
  integer: NumberField,
  boolean: CheckboxField,
  choice: ChoiceField,
  image: ImageField,
  picture: PictureField,
  object: ObjectEditor,
  list: ListEditor,
  blocks: ListEditor,
};

export function FieldEditor({ field, value, path }: FieldProps) {
  if (field.constant !== undefined) return null; // a block's `type`: shown as the block's title instead
  const Editor = FIELD_EDITORS[field.kind];
  return <Editor field={field} value={value} path={path} />;
}
