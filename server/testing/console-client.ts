// The console's API driven through `inject`, as its browser app drives it: a server built from a
// Config on a fixture build and a real store, team accounts created in that store, and sign-in that
// keeps the session cookie and the CSRF token for the calls that follow.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { SessionInfo } from '../../console/api-types.ts';
import type { AnalyticsStore } from '../analytics/analytics-store.ts';
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import type { Role } from '../../back-office/roles.ts';
import { buildApp, type BuildAppOptions } from '../app.ts';
import type { Config, Environment } from '../config.ts';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from './site-fixture.ts';
import type { StoreDatabase } from './store-harness.ts';

export const PASSWORD = 'correct horse battery staple';
const PASSWORD_HASH = await hashPassword(PASSWORD);
export const HOST = 'localhost:4321';
export const ORIGIN = `http://${HOST}`;
export const CONSOLE_HTML =
  '<!doctype html><html><head><script type="module" src="/console/assets/app-1a2b3c.js"></script></head><body><div id="root"></div></body></html>\n';

export type Signed = {
  readonly cookie: string;
  readonly csrfToken: string;
  readonly info: SessionInfo;
  /** Headers for a change: the cookie, the token, JSON and this site's Origin. */
  readonly changeHeaders: Record<string, string>;
};

export type ConsoleTestServer = {
  readonly app: FastifyInstance;
  readonly store: Database;
  readonly fixture: SiteFixture;
  addAccount(email: string, role: Role): Promise<void>;
  signIn(email: string, password?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  signedIn(email: string): Promise<Signed>;
  /** A GET with the session's cookie. */
  read(signed: Signed | undefined, url: string): Promise<LightMyRequestResponse>;
  /** A change with the session's cookie, token, JSON body and Origin. */
  change(signed: Signed, method: InjectOptions['method'], url: string, body?: unknown): Promise<LightMyRequestResponse>;
  insertLead(lead: Partial<NewLead> & Pick<NewLead, 'id'>): Promise<void>;
  close(): Promise<void>;
};

/** The `name=value` of a Set-Cookie header. */
export function cookiePair(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat()[0] ?? '';
  return header.split(';')[0]!;
}

export async function startConsoleServer(
  options: {
    database?: StoreDatabase;
    env?: Environment;
    build?: boolean;
    appOptions?: BuildAppOptions;
    /** The store the visit reports read, as `app.analytics.store`, when the app does not count visits itself. */
    analytics?: AnalyticsStore;
  } = {},
): Promise<ConsoleTestServer> {
  const fixture = await createSiteFixture();
  if (options.build !== false) {
    await mkdir(path.join(fixture.distDir, 'console', 'assets'), { recursive: true });
    await writeFile(path.join(fixture.distDir, 'console', 'index.html'), CONSOLE_HTML);
    await writeFile(path.join(fixture.distDir, 'console', 'assets', 'app-1a2b3c.js'), 'console.log("console");\n');
  }
  const base = fixtureConfig(fixture.distDir, options.env);
  const config: Config = options.database ? { ...base, leadStore: options.database.config } : base;
  const app = buildApp(config, {
    ...options.appOptions,
    ...(options.analytics ? { analytics: { ...options.appOptions?.analytics, store: options.analytics } } : {}),
  });
  await app.ready();
  const store = app.leadRelay.store;

  const signIn = (email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/console/api/session',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ email, password }),
    });

  return {
    app,
    store,
    fixture,
    async addAccount(email, role) {
      await store.createAccount({ email, role, passwordHash: PASSWORD_HASH, now: Date.now() });
    },
    signIn,
    async signedIn(email) {
      const response = await signIn(email);
      if (response.statusCode !== 200) throw new Error(`sign-in as ${email} answered ${response.statusCode}: ${response.body}`);
      const info = response.json<SessionInfo>();
      const cookie = cookiePair(response);
      return {
        cookie,
        csrfToken: info.csrfToken,
        info,
        changeHeaders: { host: HOST, origin: ORIGIN, cookie, 'x-csrf-token': info.csrfToken, 'content-type': 'application/json' },
      };
    },
    read(signed, url) {
      return app.inject({ method: 'GET', url, headers: { host: HOST, ...(signed ? { cookie: signed.cookie } : {}) } });
    },
    change(signed, method, url, body) {
      const headers = { ...signed.changeHeaders };
      if (body === undefined) delete headers['content-type'];
      return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
    },
    async insertLead(lead) {
      await store.insertLead({
        receivedAt: Date.now(),
        source: 'Contact Page Form',
        email: '',
        payload: {},
        spamReason: undefined,
        initialState: 'held',
        ...lead,
      });
    },
    async close() {
      await app.close();
      await fixture.remove();
    },
  };
}
