// The content check's issues as the studio sends them: each one named where the form shows it
// ("Block 6, Text section › Picture › Description") and in the page or article the studio names,
// so no screen and no answer of the server has to name a place from the file's keys. The form model
// is built from the schemas the check reads; it is kept while their files stay the same.
import { parse } from 'yaml';
import type { ContentIssue } from '../../content-model/content-issue.ts';
import { readMarkdownFile } from '../../content-model/formats/yaml-edit.ts';
import { readSchemaFiles, schemaModelOf } from '../../content-model/load/schema-files.ts';
import { isRecord } from '../../content-model/values.ts';
import { issuePlace } from '../app/fields/issue-place.ts';
import { buildFormModel, type FormModel } from '../app/fields/form-model.ts';
import type { Workspace } from './workspace.ts';

let last: { texts: string; model: FormModel } | undefined;

/** The form model of the project at `root`, as the studio's browser app builds it. */
export function formModelOf(root: string): FormModel {
  const files = readSchemaFiles(root);
  const texts = JSON.stringify(files.map(({ name, text }) => [name, text]));
  if (last?.texts !== texts) last = { texts, model: buildFormModel(schemaModelOf(files).files) };
  return last.model;
}

/**
 * `issues` with their places in the form's words and their files' names, reading each file as
 * `overrides` (absolute path → text, `null` for deleted) or the disk has it.
 */
export function inFormWords(
  root: string,
  workspace: Workspace,
  issues: readonly ContentIssue[],
  overrides: ReadonlyMap<string, string | null>,
): ContentIssue[] {
  if (issues.length === 0) return [];
  const model = formModelOf(root);
  const files = new Map<string, { kind: Parameters<typeof issuePlace>[1]; data: unknown; name: string | undefined } | undefined>();
  const fileOf = (relative: string) => {
    if (!files.has(relative)) files.set(relative, readFile(workspace, relative, overrides));
    return files.get(relative);
  };
  return issues.map((issue) => {
    const file = fileOf(issue.file);
    if (!file) return issue;
    const place = issuePlace(model, file.kind, file.data, issue);
    return { ...issue, ...(place ? { place } : {}), ...(file.name ? { fileName: file.name } : {}) };
  });
}

function readFile(workspace: Workspace, relative: string, overrides: ReadonlyMap<string, string | null>) {
  let file;
  try {
    file = workspace.contentFile(relative);
  } catch {
    return undefined; // a folder (no page for broken links) or a file the studio does not edit
  }
  let text: string | null | undefined;
  try {
    text = overrides.has(file.absolute) ? overrides.get(file.absolute) : workspace.readDisk(file)?.text;
  } catch {
    text = undefined; // a link out of content/: named by the check itself, never read
  }
  let data: unknown;
  let name: string | undefined;
  if (typeof text === 'string') {
    name = workspace.nameOf(relative, text);
    try {
      data = file.kind === 'article' ? readMarkdownFile(text).frontMatter : (parse(text) as unknown);
    } catch {
      data = undefined; // a file that cannot be read: the crumbs stop where the form cannot follow
    }
  } else name = workspace.spokenName(file);
  return { kind: file.kind, data: isRecord(data) ? data : undefined, name };
}
