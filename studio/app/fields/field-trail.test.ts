import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readSchemaModel } from '../../../content-model/load/schema-files.ts';
import { changePlace, fieldTrail, mistakePlace } from './field-trail.ts';
import { blockTypeOf, buildFormModel } from './form-model.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const model = buildFormModel(readSchemaModel(REPO_ROOT).files);
const home = parse(readFileSync(path.join(REPO_ROOT, 'content/pages/home.yaml'), 'utf8')) as { blocks: { type: string }[] };
const heroTitle = blockTypeOf(model, 'hero')!.title;

describe('where a value sits, in the form’s words', () => {
  it('names a block by its number and its palette name for a mistake, and by its name for a change', () => {
    const crumbs = fieldTrail(model, model.page, home, ['blocks', 0, 'heading']);
    expect(crumbs[0]).toEqual({ kind: 'block', number: 1, title: heroTitle });
    expect(mistakePlace(crumbs)).toMatch(new RegExp(`^Block 1, ${heroTitle} › \\S`));
    expect(changePlace(crumbs)).toMatch(new RegExp(`^${heroTitle} › \\S`));
    expect(mistakePlace(crumbs)).not.toMatch(/blocks|\[|heading/);
  });

  it('numbers items of a list as the form does, from 1', () => {
    const stats = home.blocks.findIndex((block) => block.type === 'stats');
    const crumbs = fieldTrail(model, model.page, home, ['blocks', stats, 'items', 1]);
    expect(crumbs.at(-1)).toMatchObject({ kind: 'item', number: 2 });
  });

  it('tells two blocks of one name apart in a change by their numbers', () => {
    const crumbs = fieldTrail(model, model.page, home, ['blocks', 0]);
    expect(changePlace(crumbs, [heroTitle, heroTitle])).toBe(`${heroTitle} 1`);
  });

  it('stops at what the form does not know, naming the place as closely as it can', () => {
    expect(mistakePlace(fieldTrail(model, model.page, home, ['blocks', 0, 'noSuchField']))).toBe(`Block 1, ${heroTitle}`);
    expect(fieldTrail(model, model.page, home, [])).toEqual([]);
  });
});
