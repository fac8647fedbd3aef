// Every console route's body, query and path parameters are checked by the zod schemas the route
// declares (`schema: { body, querystring, params }`) before its handler runs, and the handler's types
// come from those same schemas, so there is no second description of a request to drift from the
// check. A request that fails is answered 400 `{ error: 'validation', message, fields }`: one
// sentence per field, naming what it must be.
import type { FastifyInstance, FastifyPluginOptions } from 'fastify';
import { z } from 'zod';
import { ConsoleProblem } from './api-errors.ts';
import {
  installRequestChecks as installZodChecks,
  type RequestCheckWords,
  type ZodRoutes,
} from '../../back-office/front-door/request-checks.ts';

/** A module of console routes, whose requests are typed from their zod schemas. */
export type ConsoleRoutes<Options extends FastifyPluginOptions = Record<never, never>> = ZodRoutes<Options>;

export const CONTROL_CHARACTER_MESSAGE = 'Must not contain control characters (such as U+0000, a tab or a line break).';

/**
 * The one schema for text a person types or an address carries into the console (a search, a filter,
 * a form's name, an address): at most `maxLength` characters and no control characters (U+0000 to
 * U+001F, U+007F to U+009F). None belongs in a one-line input, PostgreSQL refuses U+0000 in any text,
 * and a refusal here names the input instead of the store failing part-way through a request.
 */
export function consoleText(maxLength: number) {
  return z
    .string()
    .max(maxLength)
    .refine((value) => !/\p{Cc}/u.test(value), CONTROL_CHARACTER_MESSAGE);
}

/** What a value must be, in the words of a message. */
const KINDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** One sentence for one failed check; a schema's own message (`{ error }`) takes precedence. */
function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Required.' : `Must be ${KINDS[issue.expected] ?? issue.expected}.`;
    case 'invalid_value':
      return `Must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? issue.minimum === 1
          ? 'Must not be empty.'
          : `Must have at least ${issue.minimum} characters.`
        : issue.origin === 'array'
          ? `Must list at least ${issue.minimum}.`
          : `Must be at least ${issue.minimum}.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `Must have at most ${issue.maximum} characters.`
        : issue.origin === 'array'
          ? `Must list at most ${issue.maximum}.`
          : `Must be at most ${issue.maximum}.`;
    case 'unrecognized_keys':
      return `Not an input this takes: ${issue.keys.join(', ')}.`;
    default:
      return 'Not valid.';
  }
}

/**
 * The fields of a failed check, each with its first message; `_request` when the whole input is wrong.
 * The names are the request's own (`?__proto__=x`, `?constructor=x`), so they are kept in an object
 * without a prototype: a name Object.prototype already has is still recorded, and sets nothing else.
 */
export function issueFields(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const issue of issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.map(String).join('.') || '_request'];
    for (const key of keys) if (!Object.hasOwn(fields, key)) fields[key] = issue.message;
  }
  return fields;
}

export function validationProblem(fields: Record<string, string>): ConsoleProblem {
  const [name, message] = Object.entries(fields)[0] ?? ['_request', 'Not valid.'];
  const sentence = name === '_request' ? `The request is not valid: ${message}` : `"${name}": ${message}`;
  return new ConsoleProblem(400, 'validation', sentence, fields);
}

/** The console's words for a failed check: one sentence per field, the first one in the message. */
export const CONSOLE_REQUEST_WORDS: RequestCheckWords = {
  describe: (issue) => describeIssue(issue),
  refuse: (issues) => validationProblem(issueFields(issues)),
};

/** Compiles the zod schemas of the routes of `app` (an encapsulated scope: the console's own). */
export function installRequestChecks(app: FastifyInstance): void {
  installZodChecks(app, CONSOLE_REQUEST_WORDS);
}
