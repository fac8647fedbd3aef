// Routes whose requests are typed from the zod schemas they declare (`schema: { body, querystring,
// params }`): the check and the handler's types come from one description, so they cannot drift.
// The console and the studio both build their routes this way.
import type { FastifyPluginAsync, FastifyPluginOptions, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { z } from 'zod';

/** Types a route's request from its zod schemas. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  readonly validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  readonly serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** A module of routes whose requests are typed from their zod schemas. */
export type ZodRoutes<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginAsync<
  Options,
  RawServerDefault,
  ZodTypeProvider
>;
