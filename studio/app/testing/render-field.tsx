// For component tests: one field editor drawn the way the file editor draws it, inside an
// EditorProvider whose edits go through the editor's own setIn and moveIn, so a test sees what a
// person sees and reads back what the file would hold. Not part of the app's bundle.
import { render, type RenderResult } from '@testing-library/react';
import { useRef, useState } from 'react';
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import { EditorProvider, issuesAtPath, type DataPath, type EditorApi, type LinkTarget } from '../editor-context.tsx';
import { moveIn, setIn } from '../editor/data-path.ts';
import { FieldEditor } from '../fields/FieldEditor.tsx';
import { ObjectEditor } from '../fields/ObjectEditor.tsx';
import type { Field, FormModel } from '../fields/form-model.ts';

/** A form model with no files and no block types: enough for a field that is not a page's blocks. */
export const EMPTY_MODEL: FormModel = {
  page: { key: '', label: 'Page', required: true, kind: 'object', fields: [] },
  site: { key: '', label: 'Site', required: true, kind: 'object', fields: [] },
  article: { key: '', label: 'Article', required: true, kind: 'object', fields: [] },
  roi: { key: '', label: 'ROI', required: true, kind: 'object', fields: [] },
  blocks: [],
};

export type RenderedField = RenderResult & {
  /** The field's value now, as the file would hold it (`undefined`: the property is removed). */
  value(): unknown;
  /** How many edits the field reported. */
  edits(): number;
  /** The blocks the preview was asked to show, in order. */
  focusedBlocks: number[];
};

/**
 * Draws `field` holding `initial`, as the property `field.key` of a file. `issues` are the build's
 * messages by dotted path from the file's top (`{ 'heading': [...] }`, `{ 'items.1.question': [...] }`),
 * `warnings` its advice, the same way. `linkTargets` are the pages a link may point at; `fixed`, by
 * dotted path, why a value is shown but cannot be changed.
 */
export function renderField(
  field: Field,
  initial: unknown,
  {
    issues = {},
    warnings = {},
    model = EMPTY_MODEL,
    linkTargets = [],
    fixed = {},
  }: {
    issues?: Record<string, string[]>;
    warnings?: Record<string, string[]>;
    model?: FormModel;
    linkTargets?: readonly LinkTarget[];
    fixed?: Record<string, string>;
  } = {},
): RenderedField {
  const state = { root: { [field.key]: initial } as unknown, edits: 0 };
  const focusedBlocks: number[] = [];
  const contentIssues: ContentIssue[] = Object.entries(issues).flatMap(([place, messages]) =>
    messages.map((message) => ({ file: 'test.yaml', line: 1, column: 1, where: place, message, segments: segmentsOf(place) })),
  );
  const contentWarnings: ContentIssue[] = Object.entries(warnings).flatMap(([place, messages]) =>
    messages.map((message) => ({
      file: 'test.yaml',
      line: 1,
      column: 1,
      where: place,
      message,
      segments: segmentsOf(place),
      severity: 'warning' as const,
    })),
  );

  function Harness() {
    const latest = useRef(state.root);
    const [root, setRoot] = useState(state.root);
    const [openBlock, setOpenBlock] = useState<number | null>(null);
    const update = (next: unknown) => {
      latest.current = next;
      state.root = next;
      state.edits++;
      setRoot(next);
    };
    const editor: EditorApi = {
      model,
      setAt: (at, value) => update(setIn(latest.current, at, value)),
      move: (at, offset) => update(moveIn(latest.current, at, offset)),
      issuesAt: (at) => issuesAtPath(contentIssues, [], at),
      warningsAt: (at) => issuesAtPath(contentWarnings, [], at),
      countIssuesUnder: (at) => contentIssues.filter((issue) => startsWith(issue.segments ?? [], at)).length,
      focusBlock: (index) => focusedBlocks.push(index),
      openBlock,
      setOpenBlock,
      Field: FieldEditor,
      Group: ObjectEditor,
      linkTargets,
      fixedReason: (at) => fixed[at.join('.')],
    };
    return (
      <EditorProvider value={editor}>
        <FieldEditor field={field} value={(root as Record<string, unknown>)[field.key]} path={[field.key]} />
      </EditorProvider>
    );
  }

  const rendered = render(<Harness />);
  return {
    ...rendered,
    value: () => (state.root as Record<string, unknown>)[field.key],
    edits: () => state.edits,
    focusedBlocks,
  };
}

/** The text of every element a control's aria-describedby points at, joined; a missing id fails loudly. */
export function describedBy(element: Element): string {
  const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids
    .map((id) => {
      const described = document.getElementById(id);
      if (!described) throw new Error(`aria-describedby points at #${id}, which is not on the page`);
      return described.textContent ?? '';
    })
    .join(' | ');
}

function segmentsOf(place: string): (string | number)[] {
  return place.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function startsWith(path: DataPath, prefix: DataPath): boolean {
  return prefix.every((segment, index) => String(path[index]) === String(segment));
}
