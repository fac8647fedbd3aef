// Every route's body, query and path parameters are checked by the zod schemas the route declares
// (`schema: { body, querystring, params }`) before its handler runs, and the handler's types come
// from those same schemas (back-office/front-door/request-checks.ts), so there is no second description of a request to
// drift from the check. A request that fails is answered 400 with one plain sentence naming the
// field and what it must be (plugins/error-answers.ts), and nothing runs. JSON bodies have already
// passed the bounds of json-body.ts while being parsed.
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { installRequestChecks, type RequestCheckWords, type ZodRoutes } from '../../../back-office/front-door/request-checks.ts';

/** A module of studio routes, whose requests are typed from their zod schemas. */
export type StudioRoutes<Options extends FastifyPluginOptions = Record<never, never>> = ZodRoutes<Options>;

/** A request whose body, query or path does not have the shape its route reads. */
export class RequestShapeError extends Error {
  override name = 'RequestShapeError';
}

/** Where each checked part of a request is, in the words of a message. */
const PLACES: Readonly<Record<string, string>> = { body: 'the request', querystring: 'the address', params: 'the address' };

/** What a value must be, in the words of a message. */
const KINDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

/**
 * One sentence for one failed check: which field, where, and what it must be. A schema's own message
 * (`z.string({ error })`) takes precedence over this one.
 */
function describeIssue(issue: z.core.$ZodRawIssue, part: string | undefined): string {
  const place = PLACES[part ?? ''] ?? 'the request';
  const field = (issue.path ?? []).map(String).join('.');
  if (field === '') return part === 'body' ? 'The request must carry a JSON object.' : `The ${place.slice(4)} is not valid.`;
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return `"${field}" is missing from ${place}.`;
    if (part === 'querystring' && Array.isArray(issue.input)) return `"${field}" must be given once in ${place}.`;
    return `"${field}" in ${place} must be ${KINDS[issue.expected] ?? issue.expected}.`;
  }
  if (issue.code === 'invalid_value')
    return `"${field}" in ${place} must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}.`;
  return `"${field}" in ${place} is not valid.`;
}

/** The studio's words for a failed check: the first field's sentence, answered 400 by plugins/error-answers.ts. */
export const STUDIO_REQUEST_WORDS: RequestCheckWords = {
  describe: describeIssue,
  refuse: (issues) => new RequestShapeError(issues[0]?.message ?? 'The request was not understood.'),
};

const requestChecks: FastifyPluginAsync = async (app) => {
  installRequestChecks(app, STUDIO_REQUEST_WORDS);
};

// Not encapsulated: every route module registered after it compiles its schemas with it.
export const requestChecksPlugin = fp(requestChecks, { name: 'studio-request-checks', fastify: '5.x' });
