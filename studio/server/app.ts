// The studio's HTTP application: its browser app, the preview, and a JSON API over the workspace
// (content files and drafts), the publisher and the image library. It never listens: studio/main.ts
// does, and tests call `inject`.
//
// Who may do what is decided once per request by access.ts, on the route that will run: every route
// needs a session unless it says otherwise, and every change (any method but GET/HEAD) also needs the
// session's CSRF token in X-CSRF-Token, a JSON body (pictures: the picture's type), and no sign from
// the browser that it comes from another site. Without accounts (one person on their own machine,
// loopback only) the session is opened for the local editor on first visit; with the team's
// accounts (the lead store's, shared with the console), people whose role may edit the site sign in
// with their e-mail address, attempts are limited per account and per address (counted in the
// store, together with the console's), and each request's session is looked up in the store.
//
// Built like the site's server (server/app.ts): capabilities as plugins (plugins/), then the routes
// (routes/), each module given what it works on.
import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import type { SessionStore } from '../../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../../back-office/sign-in/sign-in-limit-store.ts';
import type { StudioScheduleStore } from '../../back-office/studio-schedule/studio-schedule-store.ts';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { can } from '../../back-office/roles.ts';
import { createTeamSignIn } from '../../back-office/sign-in/sign-in.ts';
import { CONNECTION_LIMITS, type ConnectionLimits } from '../../back-office/http/connection-limits.ts';
import { fastifyTrustProxy, type TrustProxy } from '../../back-office/http/trust-proxy.ts';
import { canonicalUrl } from '../../back-office/http/request-url.ts';
import { readPublicSettings } from '../../renderer/build-settings.ts';
import { logStreamOption } from '../../back-office/logging/log-format.ts';
import { RequestLog } from '../../back-office/logging/request-log.ts';
import { createAppearance } from './appearance.ts';
import { createLocalSession } from './auth/local-session.ts';
import type { SessionKeeper } from './auth/sessions.ts';
import { createTeamSessions } from './auth/team-sessions.ts';
import { createDelivery } from './delivery.ts';
import { createContentEditing } from './editing.ts';
import { createHistory } from './history.ts';
import { createImageLibrary } from './images.ts';
import { JSON_BODY_LIMIT } from './json-body.ts';
import type { LiveSettings } from './live-status.ts';
import { accessControlPlugin } from './plugins/access-control.ts';
import { bodyParsersPlugin } from './plugins/body-parsers.ts';
import { answerFrameworkError, errorAnswersPlugin } from './plugins/error-answers.ts';
import { localOnlyPlugin } from './plugins/local-only.ts';
import { requestChecksPlugin } from './plugins/request-checks.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { createStudioNotices, type StudioOutbox } from './notices.ts';
import { createPublisher } from './publish.ts';
import { createPublishRuns } from './publish-runs.ts';
import { appearanceRoutes } from './routes/appearance.ts';
import { createReviews, publishRights, type PublishRights, type ReviewSetting } from './reviews.ts';
import { createScheduler, databaseKeeping, serverTimeZone, type Clock } from './schedule.ts';
import { draftRoutes } from './routes/drafts.ts';
import { fileRoutes } from './routes/files.ts';
import { historyRoutes } from './routes/history.ts';
import { imageRoutes } from './routes/images.ts';
import { publishRoutes } from './routes/publish.ts';
import { publishStatusRoutes } from './routes/publish-status.ts';
import { referenceRoutes } from './routes/references.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { scheduleRoutes } from './routes/schedule.ts';
import { sessionRoutes, type StudioPeople } from './routes/session.ts';
import { staticFileRoutes } from './routes/static-files.ts';
import type { GitRemote } from './remote.ts';
import { createWorkspace } from './workspace.ts';
import { inLanguage, languageOfHeader } from './time-words.ts';

export type StudioOptions = {
  root: string;
  /** The built browser app (index.html, preview.html, assets/). */
  appDir: string;
  /** DIST_DIR of the site this checkout serves. */
  distDir: string;
  /**
   * The lead store whose accounts sign in (the caller opens and closes it); undefined: one local
   * editor, no sign-in, loopback only.
   */
  accounts?: AccountStore & SessionStore & SignInLimitStore;
  /** The editor's name in commits when nobody signs in. */
  localEditor?: string;
  secureCookies?: boolean;
  /** TRUST_PROXY, read as the site's server reads it: whose X-Forwarded-For names the client. */
  trustProxy?: TrustProxy;
  /** Shorter limits for tests; the studio uses the site server's own. */
  connectionLimits?: ConnectionLimits;
  stateDir?: string;
  /** The site's address, as social cards and search results show it; SITE_URL by default. */
  siteUrl?: string;
  /** Tests swap the site build for a quick one. */
  build?: (outDir: string) => Promise<void>;
  /** STUDIO_REVIEW: with accounts, `required` makes an editor's changes wait for an admin's review. */
  review?: ReviewSetting;
  /** STUDIO_TIME_ZONE: the zone scheduled publishes are set in; the server's by default. */
  timeZone?: string;
  /** The scheduler's clock and timer (a fake one in tests). */
  clock?: Clock;
  logLevel?: string;
  /** Where the log goes, as JSON lines (tests read it back). Unset: standard output, readable on a terminal. */
  logStream?: { write(line: string): void };
  /** Where publishes are pushed (STUDIO_GIT_REMOTE, else the branch's upstream); none: they stay here. */
  remote?: GitRemote | null;
  /** The deployed site watched until it serves a publish (STUDIO_LIVE_URL, STUDIO_LIVE_TIMEOUT). */
  live?: LiveSettings;
  /**
   * With accounts: the lead store's outbox, where the team's e-mails about reviews and failed
   * scheduled publishes are stored for the site's server to send, and the studio's address as the
   * team opens it (STUDIO_URL), for their links. Unset: nobody is told.
   */
  notices?: { outbox: StudioOutbox; studioUrl: string };
  /**
   * The lead database's studio schedule: scheduled publishes are kept there, so a studio started on
   * another host with a fresh clone finds them (the caller holds the database's one-studio lock).
   * Unset: they are kept in the state folder.
   */
  schedule?: StudioScheduleStore;
};

/**
 * The whole request must arrive within this. The site server allows 30 s for a lead of 16 KiB; a
 * 10 MB picture needs longer on a slow line (10 MB in two minutes is about 0.7 Mbit/s).
 */
const REQUEST_TIMEOUT_MS = 120_000;

export function buildStudioApp(options: StudioOptions): FastifyInstance {
  const { root } = options;
  const stateDir = options.stateDir ?? path.join(root, '.studio');
  const workspace = createWorkspace({ root, stateDir });
  // Even without a remote or a live site, the live build's build.json must name the publish's commit.
  const timeZone = options.timeZone ?? serverTimeZone();
  const siteUrl = options.siteUrl ?? readPublicSettings(process.env).siteUrl;
  const delivery = createDelivery({
    root,
    workspace,
    stateDir,
    remote: options.remote ?? null,
    ...(options.live ? { live: options.live } : {}),
    timeZone,
    siteUrl,
  });
  const rights = publishRights(options.review ?? 'off', options.accounts !== undefined);
  const publisher = createPublisher({
    root,
    workspace,
    distDir: options.distDir,
    stateDir,
    ...(options.build ? { build: options.build } : {}),
    delivery,
    // Asked of the account as it stands when the change goes live: a publish, a restore, an undo, an
    // approval (the approver's role) or a scheduled publish (the role of whoever scheduled it, then).
    ...(options.accounts ? { mayChangeBookingPage: mayChangeBookingPage(options.accounts, rights) } : {}),
  });
  // A publish that fails unexpectedly is logged; the screen following it is told in plain words.
  const runs = createPublishRuns({ log: (error) => app.log.error({ err: error }, 'publish failed') });
  const images = createImageLibrary({ publicDir: path.join(root, 'public') });
  const editing = createContentEditing({ root, workspace, publisher });
  const appearance = createAppearance({ workspace, editing, siteUrl });
  const history = createHistory({ root, stateDir, workspace, publisher });
  const reviews = createReviews({ stateDir, workspace, publisher });

  const limits = options.connectionLimits ?? CONNECTION_LIMITS;
  const requestTimeoutMs = options.connectionLimits ? limits.requestTimeoutMs : REQUEST_TIMEOUT_MS;
  const app = Fastify({
    // JSON lines, or readable ones on a terminal; one line per request once it is answered.
    logger: { level: options.logLevel ?? 'info', ...logStreamOption(options.logStream) },
    logController: new RequestLog(),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // Every spelling of a path (percent-escapes, doubled slashes, dot segments, a trailing slash,
    // capitals) reaches the router as one canonical path, so it finds the same route, whose own
    // settings decide access.
    rewriteUrl: (request) => canonicalUrl(request.url ?? '/'),
    routerOptions: { caseSensitive: false },
    // A URL that cannot be decoded, or a path parameter over its length limit, is refused before
    // routing and before any hook: answered with the studio's headers and words all the same.
    frameworkErrors: (error, _request, reply) => answerFrameworkError(error, reply),
    // The site server's limits: a client that sends its headers slowly, or nothing at all, is cut off.
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    requestTimeout: requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  });

  // Capabilities first, in the order their hooks run: headers on every answer; without sign-in,
  // refusing any request not addressed to this computer; the body parsers and the route schemas'
  // checks; the session cookie, then the access check that reads it (and lists every route added
  // after it); the error and not-found answers.
  app.register(securityHeadersPlugin);
  // Times in the sentences the server writes are worded in the language the browser asks in, as the
  // screen words its own (time-words.ts); after the body is read, so the handler runs in it.
  app.addHook('preHandler', (request, _reply, done) => inLanguage(languageOfHeader(request.headers['accept-language']), done));
  const { people, keeper } = whoUsesTheStudio(options.accounts, options.localEditor ?? 'local editor');
  if (people.kind === 'local') app.register(localOnlyPlugin);
  app.register(bodyParsersPlugin);
  app.register(requestChecksPlugin);
  app.register(sessionsPlugin, { secure: options.secureCookies ?? false, keeper });
  app.register(accessControlPlugin, { rights });
  app.register(errorAnswersPlugin);
  const notices = createStudioNotices({
    ...(options.accounts && options.notices ? { outbox: options.notices.outbox } : {}),
    studioUrl: options.notices?.studioUrl ?? '',
    log: app.log,
    ...(options.clock ? { now: options.clock.now } : {}),
  });
  // Scheduled publishes run from the moment the studio is ready until it closes; an approved review
  // request is marked published, or waits again, when its scheduled publish has run.
  const scheduler = createScheduler({
    stateDir,
    ...(options.schedule ? { keeping: databaseKeeping(options.schedule, { stateDir, log: app.log }) } : {}),
    workspace,
    publisher,
    timeZone,
    ...(options.clock ? { clock: options.clock } : {}),
    onFinished: (entry) => {
      if (entry.reviewId) {
        if (entry.status === 'published') reviews.published(entry.reviewId, entry.scheduledBy, entry.publishId!);
        else reviews.unscheduled(entry.reviewId);
      }
      // Whoever scheduled it hears of a failure by e-mail too, not only when they next open the studio.
      if (entry.status === 'failed') return notices.scheduleFailed(entry, scheduler.describe(entry.at));
    },
    log: app.log,
    // Read when the publish runs, not when it was scheduled: a removed account or a lost right stops it.
    ...(options.accounts ? { mayStillPublish: mayStillPublish(options.accounts, rights) } : {}),
  });
  app.addHook('onReady', async () => {
    await scheduler.start();
  });
  // A scheduled publish under way when the studio closes finishes, and its result is kept, before the
  // store closes: else the next start would find it started and not know whether it went out.
  app.addHook('onClose', async () => {
    scheduler.stop();
    await scheduler.idle();
  });

  // Routes: the JSON API under /api, then the app's own files and the pictures.
  app.register(sessionRoutes, { prefix: '/api', people, timeZone });
  app.register(fileRoutes, { prefix: '/api', workspace, publisher, editing, root, rights, scheduler });
  app.register(draftRoutes, { prefix: '/api', workspace, publisher, editing, rights, scheduler });
  app.register(referenceRoutes, { prefix: '/api', workspace, editing });
  app.register(appearanceRoutes, { prefix: '/api', appearance });
  app.register(historyRoutes, { prefix: '/api', history, publisher, runs, rights, workspace });
  app.register(publishRoutes, { prefix: '/api', publisher, runs, rights, workspace, scheduler });
  app.register(reviewRoutes, { prefix: '/api', reviews, rights, scheduler, workspace, publisher, runs, notices });
  app.register(scheduleRoutes, { prefix: '/api', scheduler, rights, workspace });
  app.register(publishStatusRoutes, { prefix: '/api', publisher, runs, rights });
  app.register(imageRoutes, { prefix: '/api', images });
  app.register(staticFileRoutes, { appDir: options.appDir, imagesDir: path.join(root, 'public', 'images'), images });
  // The live-site watch outlives every request, never the app.
  app.addHook('onClose', async () => delivery.stop());
  app.addHook('onClose', async () => publisher.close());

  return app;
}

/** Whether a team member, as their account stands now, may publish. */
function mayStillPublish(accounts: AccountStore & SessionStore & SignInLimitStore, rights: PublishRights) {
  return async (user: string): Promise<boolean> => {
    const account = await accounts.findAccount(user);
    return account !== undefined && can(account.role, 'studio:edit') && rights.mayPublish({ id: '', user, role: account.role });
  };
}

/** Whether a team member, as their account stands now, may change where the booking page points. */
function mayChangeBookingPage(accounts: AccountStore, rights: PublishRights) {
  return async (user: string): Promise<boolean> => {
    const account = await accounts.findAccount(user);
    return account !== undefined && rights.mayChangeBookingPage({ id: '', user, role: account.role });
  };
}

/** The team signing in with the store's accounts and sessions, or the one local editor and session. */
function whoUsesTheStudio(
  accounts: (AccountStore & SessionStore & SignInLimitStore) | undefined,
  localEditor: string,
): { people: StudioPeople; keeper: SessionKeeper } {
  if (accounts) {
    return {
      people: { kind: 'team', signIn: createTeamSignIn({ store: accounts, app: 'studio', requires: 'studio:edit' }) },
      keeper: createTeamSessions(accounts),
    };
  }
  const session = createLocalSession(localEditor);
  return { people: { kind: 'local', session }, keeper: session };
}
