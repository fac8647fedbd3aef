// What every field control shares: its DOM id, the required mark, and the build's messages about it.
import { css } from '@emotion/react';
import type { Field } from '../../core/form-model.ts';
import { useEditor, type DataPath } from '../editor-context.tsx';
import { ui } from '../ui.ts';

export type FieldProps = { field: Field; value: unknown; path: DataPath };

/** A DOM id for the control of the field at `path`: the issue list and the preview jump to it. */
export function fieldId(path: DataPath): string {
  return `field-${path.join('-') || 'root'}`;
}

export function RequiredMark() {
  return (
    <span css={css({ color: '#b91c1c', marginLeft: 4 })}>
      <span aria-hidden="true">*</span>
      <span css={ui.visuallyHidden}> (required)</span>
    </span>
  );
}

/** The build's messages about this exact place (shown under a group or a list). */
export function FieldMessages({ path }: { path: DataPath }) {
  const { issuesAt } = useEditor();
  return <Messages id={`${fieldId(path)}-error`} messages={issuesAt(path)} />;
}

export function Messages({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} css={ui.error}>
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
