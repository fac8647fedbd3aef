// Every refusal and failure the console's API answers is one JSON shape, `{ error, message }`
// (console/api-types.ts), with a message a person can act on: the app shows it as it is.
import type { FastifyReply } from 'fastify';
import type { ApiError } from '../../console/api-types.ts';

export type ApiErrorCode = ApiError['error'];

export function apiError(
  reply: FastifyReply,
  status: number,
  error: ApiErrorCode,
  message: string,
  extra: Pick<ApiError, 'fields' | 'retryAfterSeconds'> = {},
): FastifyReply {
  if (extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(extra.retryAfterSeconds));
  return reply.code(status).send({ error, message, ...extra } satisfies ApiError);
}

/** An expected refusal a handler throws: answered with its status and code, never logged as a failure. */
export class ConsoleProblem extends Error {
  override name = 'ConsoleProblem';
  readonly status: number;
  readonly error: ApiErrorCode;
  readonly fields: Record<string, string> | undefined;
  constructor(status: number, error: ApiErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.error = error;
    this.fields = fields;
  }
}

export function notFound(message: string): ConsoleProblem {
  return new ConsoleProblem(404, 'not-found', message);
}

export function conflict(message: string): ConsoleProblem {
  return new ConsoleProblem(409, 'conflict', message);
}
