// Checks content against the content schemas (schema/ and each block's folder) and turns ajv's findings into sentences for editors.
import type { CONTENT_KINDS, ContentKind } from '../kinds.ts';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { issueAt, type ContentIssue } from '../content-issue.ts';
import type { YamlSource } from '../formats/yaml-source.ts';
import addContentKeywords from '../schema-keywords.cjs';
import { schemaFileOf } from '../schema.ts';
import { readSchemaFiles, type SchemaFile } from './schema-files.ts';
import { HIDDEN_CHARACTER, HIDDEN_CHARACTER_MESSAGE } from '../hidden-characters.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The schema of a kind of content file. */
export type SchemaName = (typeof CONTENT_KINDS)[ContentKind]['schema'];

export type SchemaValidator = {
  /** Validates one parsed file; returns located issues (empty when valid). */
  validate(schema: SchemaName, source: YamlSource): ContentIssue[];
};

// Compiling the schemas takes longer than checking all the content (over 100 ms) and the studio
// checks the content on most requests: the last compiled schemas are kept while their files stay the same.
let last: { texts: string; validator: SchemaValidator } | undefined;

/** The validator for the schemas of the project at `root`. */
export function createSchemaValidator(root: string): SchemaValidator {
  const schemas = readSchemaFiles(root);
  const texts = JSON.stringify(schemas.map(({ name, text }) => [name, text]));
  if (last?.texts !== texts) last = { texts, validator: compileValidator(schemas) };
  return last.validator;
}

function compileValidator(schemas: readonly SchemaFile[]): SchemaValidator {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  addContentKeywords(ajv);
  for (const { name, text } of schemas) ajv.addSchema(JSON.parse(text) as object, name);
  const compiled = new Map<SchemaName, ValidateFunction>();
  return {
    validate(schema, source) {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = ajv.getSchema(schema);
        if (!validate) throw new Error(`${schemaFileOf(schema)} is missing`);
        compiled.set(schema, validate);
      }
      if (validate(source.data)) return [];
      return dedupe((validate.errors ?? []).filter(isReportable).map((e) => toIssue(e, source)));
    },
  };
}

function isReportable(error: ErrorObject): boolean {
  // `if`/`then` wrappers repeat what the inner error already says.
  return error.keyword !== 'if';
}

function dedupe(issues: ContentIssue[]): ContentIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.line}:${i.column}:${i.where}:${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toIssue(error: ErrorObject, source: YamlSource): ContentIssue {
  const segments = pathSegments(error.instancePath);
  const pointAtKey = error.keyword === 'additionalProperties';
  const target = pointAtKey ? [...segments, String(error.params.additionalProperty)] : segments;
  const { line, column } = source.positionOf(target, pointAtKey ? 'key' : 'value');
  // A missing property is reported where it belongs, so the studio shows it beside the empty field.
  const about = error.keyword === 'required' ? [...segments, String(error.params.missingProperty)] : target;
  return issueAt({ file: source.file, line, column, data: source.data }, about, explain(error, about));
}

export function pathSegments(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

type SchemaLike = {
  title?: string;
  description?: string;
  properties?: Record<string, { title?: string; description?: string }>;
  enum?: unknown[];
};

// The messages name no keys of the file: the studio shows them after the place in the form's words
// ("Block 1, Hero › Heading: a heading is needed"), the build after the developer's `where`. Where a
// mistake has a reason a person may not guess (a picture's description, a link), the message says it.

/** What an empty or missing value at this place is told: specific where the reason matters. */
function neededMessage(segments: readonly (string | number)[]): string {
  const key = segments[segments.length - 1];
  if (key === 'alt' || key === 'imageAlt') return 'A picture needs a description for people who cannot see it: say what it shows.';
  if (key === 'src' || key === 'image') return 'A picture is needed here: choose one.';
  if (key === 'heading') return 'A heading is needed here: write one.';
  if (key === 'title') return 'A title is needed here: write one.';
  if (key === 'href') return 'A link needs somewhere to go: choose a page or write an address.';
  return 'This is needed: fill it in.';
}

function explain(error: ErrorObject, segments: readonly (string | number)[]): string {
  const parent = (error.parentSchema ?? {}) as SchemaLike;
  const params = error.params as Record<string, unknown>;
  const key = segments[segments.length - 1];
  switch (error.keyword) {
    case 'required':
      return neededMessage(segments);
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const known = Object.entries(parent.properties ?? {});
      const guess = closest(
        name,
        known.map(([property]) => property),
      );
      const label = guess === undefined ? undefined : (parent.properties?.[guess]?.title ?? sentenceCase(guess));
      return `"${name}" is not something this part of the form has${label ? `: did you mean "${label}"?` : ', so it cannot be shown: remove it.'}`;
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const guess = closest(String(error.data), allowed);
      return `"${String(error.data)}" is not one of the choices here.${guess ? ` Did you mean "${guess}"?` : ''} The choices: ${allowed.join(', ')}.`;
    }
    case 'const':
      return `This can only be "${String(params.allowedValue)}".`;
    case 'type':
      return `This should be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}, but it is ${describeValue(error.data)}.`;
    case 'minLength':
      return params.limit === 1
        ? neededMessage(segments)
        : `This is too short: write at least ${String(params.limit)} characters (it has ${[...String(error.data)].length}).`;
    case 'maxLength':
      return `This is too long: at most ${String(params.limit)} characters (it has ${[...String(error.data)].length}).`;
    case 'pattern':
      if (typeof error.data === 'string' && HIDDEN_CHARACTER.test(error.data)) return HIDDEN_CHARACTER_MESSAGE;
      if (key === 'src' || key === 'image')
        return `"${String(error.data)}" is not the address of one of the site's pictures: choose a picture from the list, or upload it.`;
      if (key === 'href' || key === 'ctaHref')
        return `"${String(error.data)}" is not an address a link can go to: choose a page of the site, or write a full address starting with https://.`;
      return `"${String(error.data)}" is not written the way this needs.${parent.description ? ` ${parent.description}` : ''}`;
    case 'format':
      return params.format === 'email'
        ? `"${String(error.data)}" is not a valid e-mail address.`
        : params.format === 'date'
          ? `"${String(error.data)}" is not a date: choose one in the calendar.`
          : `"${String(error.data)}" is not a valid ${String(params.format)}.`;
    case 'minimum':
      return `This must be at least ${String(params.limit)} (it is ${String(error.data)}).`;
    case 'maximum':
      return `This must be at most ${String(params.limit)} (it is ${String(error.data)}).`;
    case 'minItems':
      return `This list needs at least ${String(params.limit)} ${params.limit === 1 ? 'entry' : 'entries'}: add ${params.limit === 1 ? 'one' : 'more'}.`;
    case 'maxItems':
      return `This list can have at most ${String(params.limit)} entries: remove ${Array.isArray(error.data) && error.data.length - Number(params.limit) === 1 ? 'one' : 'some'}.`;
    default:
      return error.message ? `This ${error.message}.` : 'This value is not valid.';
  }
}

/** A property name as words, for the rare key whose schema gives no title: "imageAlt" → "Image alt". */
function sentenceCase(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .join(' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of fields',
};

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a group of fields';
  if (typeof value === 'string') return `the text "${value}"`;
  return `${typeof value === 'number' ? 'the number' : 'the value'} ${String(value)}`;
}

/** The allowed word closest to a typo, if it is close enough to be a likely fix. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
