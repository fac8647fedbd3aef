// Adding a block type is two steps: make its folder (blocks/<type>/schema.json and Block.tsx), then
// run `npm run generate`. This test takes both steps in a copy of the project and checks that the
// new type is then validated, rendered, prerendered and offered in the studio's palette, with no
// other file touched by hand.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSchemaModel } from '../content-model/load/schema-files.ts';
import { blockTypeOf, buildFormModel, startingBlock } from '../studio/app/fields/form-model.ts';

const REPO = path.resolve(import.meta.dirname, '..');

const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'block-logo-strip.schema.json',
  title: 'Logo strip',
  description: 'A row of client logos under a short heading.',
  type: 'object',
  properties: {
    type: { const: 'logo-strip', description: 'Always "logo-strip".' },
    id: { $ref: 'common.schema.json#/definitions/id' },
    heading: { type: 'string', minLength: 1, description: 'The line above the logos.' },
    names: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', minLength: 1, description: 'A client’s name.' },
      description: 'The clients, in the order shown.',
    },
  },
  required: ['type', 'heading', 'names'],
  additionalProperties: false,
  examples: [{ type: 'logo-strip', heading: 'Trusted by', names: ['Acme', 'Globex'] }],
};

const COMPONENT = `import type { LogoStripBlock } from '../../generated/content-types.ts';
import { Section } from '../../ui/Section.tsx';

export default function LogoStrip({ id, heading, names }: LogoStripBlock) {
  return (
    <Section id={id} heading={heading}>
      <ul data-block="logo-strip">
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </Section>
  );
}
`;

const PAGE = `path: /clients
title: Our clients | Premier AI Consulting
description: The companies that trust Premier AI Consulting with their AI projects, large and small alike.
blocks:
  - type: hero
    heading: Our clients
  - type: logo-strip
    heading: Trusted by growing companies
    names: [Northwind Traders, Contoso Dental]
`;

let copy: string;
const run = (command: string, ...args: string[]) =>
  spawnSync(command, args, { cwd: copy, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'add-a-block-'));
  const tracked = execFileSync('git', ['-C', REPO, 'ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(path.join(REPO, file))) continue;
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(copy, file));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'));

  // Step 1: the folder.
  mkdirSync(path.join(copy, 'blocks', 'logo-strip'));
  writeFileSync(path.join(copy, 'blocks', 'logo-strip', 'schema.json'), `${JSON.stringify(SCHEMA, null, 2)}\n`);
  writeFileSync(path.join(copy, 'blocks', 'logo-strip', 'Block.tsx'), COMPONENT);
  // Step 2: generate.
  const generated = run('npm', 'run', 'generate');
  expect(generated.status, generated.stderr).toBe(0);
  // Then an editor uses it on a page.
  writeFileSync(path.join(copy, 'content', 'pages', 'clients.yaml'), PAGE);
}, 60_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a new block type, added in two steps', () => {
  it('is validated: the content check accepts the page, and names a mistake in the new block in plain words', () => {
    const checked = run('npm', 'run', 'check:content');
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain('17 pages');

    writeFileSync(path.join(copy, 'content', 'pages', 'clients.yaml'), PAGE.replace('    heading: Trusted', '    headng: Trusted'));
    const mistaken = run('npm', 'run', 'check:content');
    writeFileSync(path.join(copy, 'content', 'pages', 'clients.yaml'), PAGE);
    expect(mistaken.status).toBe(1);
    expect(mistaken.stderr).toMatch(
      /clients\.yaml:\d+:\d+ blocks\[1\] \(logo-strip\) headng: "headng" is not something this part of the form has: did you mean "Heading"\?/,
    );
  }, 60_000);

  it('is typed: the generated types name it and its component compiles against them', () => {
    expect(readFileSync(path.join(copy, 'generated', 'content-types.ts'), 'utf8')).toContain('export type LogoStripBlock = {');
    const compiled = run('npx', 'tsc', '-p', 'tsconfig.browser.json');
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
  }, 120_000);

  it('is rendered and prerendered: the built page holds its HTML, and as a static block it ships no script', () => {
    const built = run('npm', 'run', 'build');
    expect(built.status, built.stdout + built.stderr).toBe(0);
    const html = readFileSync(path.join(copy, 'dist', 'client', 'clients', 'index.html'), 'utf8');
    expect(html).toMatch(/<h2[^>]*>Trusted by growing companies<\/h2>/);
    expect(html).toContain('<ul data-block="logo-strip"><li>Northwind Traders</li><li>Contoso Dental</li></ul>');
    // The page with only static blocks loads nothing but the shell.
    const bootModules = /<script type="application\/json" id="boot-modules">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(bootModules ?? 'null')).toEqual([expect.stringMatching(/^\/assets\/shell-[\w-]+\.js$/)]);
    const modules = readFileSync(path.join(copy, 'generated', 'block-modules.ts'), 'utf8');
    expect(modules).toContain(`'logo-strip': { load: () => import('../blocks/logo-strip/Block.tsx') },`);
  }, 180_000);

  it("is offered in the studio's palette with its title, and starts from its example", () => {
    const model = buildFormModel(readSchemaModel(copy).files);
    expect(blockTypeOf(model, 'logo-strip')).toMatchObject({ title: 'Logo strip', description: SCHEMA.description });
    expect(model.blocks.at(-1)?.type).toBe('logo-strip');
    expect(startingBlock(model, 'logo-strip')).toEqual(SCHEMA.examples[0]);
  });
});
