// For tests: the form model of this repository's own schemas, and its home page's data, so a test
// names places exactly as the studio does for the site it edits.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readSchemaModel } from '../../content-model/load/schema-files.ts';
import { buildFormModel, type FormModel } from '../app/fields/form-model.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

let model: FormModel | undefined;

export function siteFormModel(): FormModel {
  return (model ??= buildFormModel(readSchemaModel(REPO_ROOT).files));
}

/** A fresh copy of the home page's data as the repository has it. */
export function homePage(): { title: string; noindex?: boolean; blocks: Record<string, unknown>[] } {
  return parse(readFileSync(path.join(REPO_ROOT, 'content/pages/home.yaml'), 'utf8')) as ReturnType<typeof homePage>;
}
