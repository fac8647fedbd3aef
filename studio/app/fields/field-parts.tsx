// What every field control shares: its DOM id, the required mark, and the build's messages about it.
import { css } from '@emotion/react';
import type { Field } from './form-model.ts';
import { useEditor, type DataPath } from '../editor-context.tsx';
import { color, ui } from '../ui.ts';

export type FieldProps = { field: Field; value: unknown; path: DataPath };

/** A DOM id for the control of the field at `path`: the issue list and the preview jump to it. */
export function fieldId(path: DataPath): string {
  return `field-${path.join('-') || 'root'}`;
}

export function RequiredMark() {
  return (
    <span css={css({ color: color.danger, marginLeft: 4 })}>
      <span aria-hidden="true">*</span>
      <span css={ui.visuallyHidden}> (required)</span>
    </span>
  );
}

/** The build's messages about this exact place (shown under a group or a list). */
export function FieldMessages({ path }: { path: DataPath }) {
  const { issuesAt, warningsAt } = useEditor();
  return (
    <>
      <Messages id={`${fieldId(path)}-error`} messages={issuesAt(path)} />
      <Messages id={`${fieldId(path)}-warning`} messages={warningsAt(path)} tone="warning" />
    </>
  );
}

/** The build's mistakes about a field, or (tone "warning") its advice, which starts "Suggestion:". */
export function Messages({ id, messages, tone = 'error' }: { id: string; messages: string[]; tone?: 'error' | 'warning' }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} css={tone === 'error' ? ui.error : ui.warning}>
      {messages.map((message) => (
        <p key={message}>{tone === 'warning' ? `Suggestion: ${message}` : message}</p>
      ))}
    </div>
  );
}

/**
 * The title of a group of fields (a list, a picture). Its heading level follows how deep the group
 * sits in the file, so headings never skip a level under the file's h1: a top-level list is an h2,
 * a list inside one of its items an h3. An article's details are one form with the page, so
 * "frontMatter" does not count as a level.
 */
export function GroupTitle({ id, path, field }: { id: string; path: DataPath; field: Field }) {
  const depth = path.filter((segment) => typeof segment === 'string' && segment !== 'frontMatter').length;
  const Heading = `h${Math.min(6, Math.max(2, depth + 1))}` as 'h2';
  return (
    <Heading id={id} css={[ui.groupTitle, css({ fontSize: 16, margin: '4px 0' })]}>
      {field.label}
      {field.required && <RequiredMark />}
    </Heading>
  );
}
