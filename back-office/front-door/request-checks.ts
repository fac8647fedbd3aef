// Every back-office route's body, query and path parameters are checked by the zod schemas the route
// declares (`schema: { body, querystring, params }`) before its handler runs, and the handler's types
// come from those same schemas (fastify-type-provider-zod's type provider), so there is no second
// description of a request to drift from the check. The console and the studio both build their
// routes this way; each app says in its own words what a failed check means (`RequestCheckWords`),
// and its error handler answers the error this check raises.
import type { FastifyInstance, FastifyPluginOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** A module of routes whose requests are typed from their zod schemas. */
export type ZodRoutes<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginAsyncZod<Options>;

/** The part of a request a schema checks, as Fastify names it (`body`, `querystring`, `params`). */
export type RequestPart = string | undefined;

/** How an app words a failed check. */
export type RequestCheckWords = {
  /** One sentence for one failed check; a schema's own message (`{ error }`) takes precedence. */
  describe(issue: z.core.$ZodRawIssue, part: RequestPart): string;
  /** The error a failed check raises, from its issues (each carrying its sentence), for the app's error handler to answer. */
  refuse(issues: readonly z.core.$ZodIssue[], part: RequestPart): Error;
};

/**
 * Compiles the zod schemas of every route of `app` added after it (an encapsulated scope's own, or,
 * through a non-encapsulated plugin, the whole app's).
 */
export function installRequestChecks(app: FastifyInstance, words: RequestCheckWords): void {
  app.setValidatorCompiler<z.ZodType>(({ schema, httpPart }) => (data: unknown) => {
    const checked = schema.safeParse(data, { error: (issue) => words.describe(issue, httpPart) });
    if (checked.success) return { value: checked.data };
    return { error: words.refuse(checked.error.issues, httpPart) };
  });
}
