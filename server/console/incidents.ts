// Where the console's health screen learns of a CRM incident (deliveries failing for a while). The
// alerting capability decorates the app with a provider; until one is registered, there is no
// incident to report and the screen shows none.
import type { Health } from '../../console/api-types.ts';

export type Incident = NonNullable<Health['incident']>;

export type IncidentProvider = {
  /** The incident going on at `now`, or null when deliveries are fine. */
  current(now: number): Promise<Incident | null>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the alerting capability with `app.decorate('incidents', provider)`; absent without it. */
    incidents?: IncidentProvider;
  }
}
