// What every field editor needs from the file being edited: its value at a path, a way to change it,
// and the build's messages about it.
import { createContext, useContext, type ComponentType } from 'react';
import type { ContentIssue } from '../../content-model/content-issue.ts';
import type { Field, FormModel } from './fields/form-model.ts';

export type DataPath = readonly (string | number)[];

export type EditorApi = {
  model: FormModel;
  setAt(path: DataPath, value: unknown): void;
  /** Moves the list item at `path` by `offset` places. */
  move(path: DataPath, offset: number): void;
  /** The mistakes about `path`: they stop publishing. */
  issuesAt(path: DataPath): string[];
  /** The warnings about `path`: advice that does not stop publishing. */
  warningsAt(path: DataPath): string[];
  /** How many of the build's messages are about `path` or anything inside it. */
  countIssuesUnder(path: DataPath): number;
  /** The person is working on block `index`: the preview scrolls to it. */
  focusBlock(index: number): void;
  /** Block `index` is opened (its fields shown). */
  openBlock: number | null;
  setOpenBlock(index: number | null): void;
  /** The generic field and group editors, for editors that hold fields (lists, pictures) without importing them back. */
  Field: ComponentType<{ field: Field; value: unknown; path: DataPath }>;
  Group: ComponentType<{ field: Field; value: unknown; path: DataPath; bare?: boolean }>;
  /** The site's pages and articles a link can point at, named as the site's links name them; none when unknown. */
  linkTargets?: readonly LinkTarget[];
  /** Why the value at `path` is shown but cannot be changed (the home page's address); undefined when it can be. */
  fixedReason?(path: DataPath): string | undefined;
};

/** A page of this site, as the link chooser offers it: its address and its name. */
export type LinkTarget = { address: string; name: string; kind: 'page' | 'article' };

const EditorContext = createContext<EditorApi | null>(null);
export const EditorProvider = EditorContext.Provider;

export function useEditor(): EditorApi {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('useEditor() needs an <EditorProvider> above it');
  return editor;
}

/** Issues whose property path is exactly `path` (relative to the data the form edits); pass the mistakes or the warnings. */
export function issuesAtPath(issues: readonly ContentIssue[], prefix: DataPath, path: DataPath): string[] {
  const full = [...prefix, ...path];
  return issues.filter((issue) => issue.segments !== undefined && samePath(issue.segments, full)).map((issue) => issue.message);
}

/** A mistake stops publishing; a warning is advice. */
export const isWarning = (issue: ContentIssue) => issue.severity === 'warning';

export function samePath(a: DataPath, b: DataPath): boolean {
  return a.length === b.length && a.every((segment, index) => String(segment) === String(b[index]));
}
