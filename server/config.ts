import path from 'node:path';
import { isHttpUrl, readHttpsUrl, readLeadEndpoint, readSiteOrigin } from '../renderer/build-settings.ts';
import type { SettingReader } from '../renderer/build-settings.ts';
import { isEmailAddress } from '../back-office/accounts/email.ts';
import { checkCrmLeadUrlTemplate } from './outbox/crm-lead-url.ts';
import { loadEnvFile } from '../back-office/env-file.ts';
import { readTrustProxy, type TrustProxy } from '../back-office/http/trust-proxy.ts';
import { parseEscalateAfter } from './sales/escalation.ts';

// The server's settings, read once from the environment.
// parseConfig is pure; loadConfig is the one place that touches process.env and `.env`.

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LeadStoreConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /**
       * MIGRATION_LOCK_WAIT_SECONDS, in ms: how long a start waits for another process migrating the
       * database before it gives up (exit 75). Unset: the runner's default, 120 s.
       */
      readonly migrationLockWaitMs?: number;
    };

export type Config = Readonly<{
  port: number;
  host: string;
  /**
   * EVENTS_PORT: a second port on HOST where a thread of its own takes the page beacons
   * (POST /api/events), so a load balancer can send them there and keep their HTTP work off the
   * thread that takes leads. Unset: beacons are taken on PORT only.
   */
  eventsPort: number | undefined;
  /** Canonical origin without a trailing slash (build time; the server may compare origins). */
  siteUrl: string | undefined;
  bookingUrl: string | undefined;
  /** Where browsers send leads (build time); undefined means demo mode (`PUBLIC_LEAD_ENDPOINT=`). */
  publicLeadEndpoint: string | undefined;
  /** Unset: leads stay in the inbox as `held`. */
  crmWebhookUrl: string | undefined;
  /** Standard Webhooks signing secret; never log it. */
  crmWebhookSecret: string | undefined;
  /** CAL_WEBHOOK_SECRET: the secret entered with the Cal.com webhook; never log it. Unset: POST /api/bookings/cal answers 404. */
  calWebhookSecret: string | undefined;
  /** CALENDLY_WEBHOOK_SIGNING_KEY: the Calendly subscription's signing key; never log it. Unset: POST /api/bookings/calendly answers 404. */
  calendlyWebhookSigningKey: string | undefined;
  /** Where each lead's CRM record is: an http(s) address with {lead_id} and/or {email}. Unset: no CRM links. */
  crmLeadUrl: string | undefined;
  leadStore: LeadStoreConfig;
  leadRateLimitPerMinute: number;
  /**
   * Which proxies' `X-Forwarded-For` to believe when taking a visitor's address (rate limit, logs):
   * false = none (the socket address), a number = that many proxy hops, or addresses and ranges.
   */
  trustProxy: TrustProxy;
  crmRetryDelaysMs: readonly number[];
  /** At most this many CRM sends in any 10 seconds, across every server process on the store. */
  crmMaxPer10s: number;
  /** Non-spam leads older than this many days are deleted once sent (or failed); undefined keeps them for ever. */
  leadRetentionDays: number | undefined;
  /** Spam older than this many days is deleted. */
  spamRetentionDays: number;
  /** The build output folder (holds `routes.json` and `client/`), relative to the working directory. */
  distDir: string;
  logLevel: LogLevel;
  /** Where notification e-mails go out (smtp:// or smtps://, may hold a password: never log it). Unset: no e-mail. */
  smtpUrl: string | undefined;
  /** SMTP_ALLOW_PLAINTEXT: e-mail over smtp:// may go unencrypted to a server on the network that offers no STARTTLS. */
  smtpAllowPlaintext: boolean;
  /** Who receives notification e-mails; empty exactly when smtpUrl is unset. */
  notifyTo: readonly string[];
  /** The From header of notification e-mails: `Name <address>` or an address. */
  notifyFrom: string;
  /** Deliveries failing this long without a success open an incident (one alert, one recovery notice). */
  alertAfterMinutes: number;
  /** Slack-compatible incoming webhook for alerts (POST {"text"}); may hold a token: never log it. */
  alertWebhookUrl: string | undefined;
  /**
   * ESCALATE_AFTER_MINUTES: business minutes without a human touch after which a lead's owner is
   * told, then the whole sales team, then the lead goes to the next available person (three steps).
   */
  escalateAfterMinutes: readonly number[];
  /**
   * ESCALATE_CHECK_SECONDS: how often the ladder looks for leads whose next step is due. A step is
   * taken at most this late; each look is one indexed read of the untouched leads.
   */
  escalateCheckSeconds: number;
  /**
   * Where counted visits are kept: PostgreSQL is the lead store's database; SQLite is a file of its
   * own (ANALYTICS_DB_FILE, default beside the lead store's file), so counting a flood of page views
   * never holds the lead store's write lock.
   */
  analyticsStore: LeadStoreConfig;
  /** Raw events and per-visit rows are deleted after this many days; the daily roll-ups stay for ever. */
  analyticsRawDays: number;
  /** The site's host name (from SITE_URL), hashed into every visit so two sites sharing a database count apart. */
  siteHost: string;
  /**
   * JOB_PERIOD_SECONDS, for tests and benchmarks: every periodic background job (the daily retention
   * purge, the hourly analytics forgetting, the daily spam count, the weekly summary) runs once per
   * this many seconds instead of once per its own period, so several periods pass in a short run.
   * Undefined (the default): each job keeps its own period.
   */
  jobPeriodSeconds: number | undefined;
  /**
   * DRAIN_SECONDS: after SIGTERM, how long the server keeps serving while /readyz answers 503, so a
   * load balancer stops sending before the listener closes.
   */
  drainSeconds: number;
}>;

export type { TrustProxy };

export type Environment = Readonly<Record<string, string | undefined>>;

export type ConfigResult = { success: true; data: Config } | { success: false; errors: readonly string[] };

export const DEFAULTS = {
  port: 4321,
  host: '127.0.0.1',
  publicLeadEndpoint: '/api/leads',
  leadsDbFile: './data/leads.sqlite',
  leadRateLimitPerMinute: 10,
  // About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (contract).
  crmRetryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
  // Below GoHighLevel's burst limit of 100 requests per 10 seconds, with room for other callers.
  crmMaxPer10s: 90,
  spamRetentionDays: 30,
  analyticsRawDays: 30,
  distDir: 'dist',
  logLevel: 'info',
  alertAfterMinutes: 15,
  escalateCheckSeconds: 15,
  // Long enough for a load balancer checking /readyz every second or two to see it fail twice.
  drainSeconds: 5,
  // Long enough for a release's migrations on a large database; a start waits no longer for another's.
  migrationLockWaitSeconds: 120,
  notifyFromName: 'Lead console',
} as const;

const MAX_PORT = 65_535;

type Reader<T> = SettingReader<T>;

/** Reads one setting with `reader`, adding its problem to `errors` and answering `fallback` when it has one. */
function createSettingReader(env: Environment, errors: string[]) {
  return function read<T>(name: string, reader: Reader<T>, fallback: T): T {
    const raw = env[name]?.trim();
    // An empty value (`NAME=` in .env) means "not set", like an absent variable.
    if (raw === undefined || raw === '') return fallback;
    const result = reader(raw, name);
    if ('error' in result) {
      errors.push(result.error);
      return fallback;
    }
    return result.value;
  };
}

function readLeadStore(read: ReturnType<typeof createSettingReader>): LeadStoreConfig {
  const databaseUrl = read('DATABASE_URL', readPostgresUrl, undefined);
  const leadsDbFile = read('LEADS_DB_FILE', readNonBlank, DEFAULTS.leadsDbFile);
  const migrationLockWaitSeconds = read('MIGRATION_LOCK_WAIT_SECONDS', readLockWaitSeconds, DEFAULTS.migrationLockWaitSeconds);
  return Object.freeze(
    databaseUrl === undefined
      ? { kind: 'sqlite' as const, file: leadsDbFile }
      : { kind: 'postgres' as const, url: databaseUrl, migrationLockWaitMs: migrationLockWaitSeconds * 1000 },
  );
}

export type LeadStoreConfigResult = { success: true; data: LeadStoreConfig } | { success: false; errors: readonly string[] };

/**
 * The lead store's settings alone (DATABASE_URL, else LEADS_DB_FILE), read exactly as parseConfig
 * reads them: for a process that shares the server's store but none of its other settings (the studio).
 */
export function parseLeadStoreConfig(env: Environment): LeadStoreConfigResult {
  const errors: string[] = [];
  const data = readLeadStore(createSettingReader(env, errors));
  return errors.length > 0 ? { success: false, errors } : { success: true, data };
}

/** Parses the environment into a frozen Config, collecting every problem instead of stopping at the first. */
export function parseConfig(env: Environment): ConfigResult {
  const errors: string[] = [];
  const read = createSettingReader(env, errors);
  const leadStore = readLeadStore(read);
  const rawLeadEndpoint = env.PUBLIC_LEAD_ENDPOINT;

  const data: Config = {
    port: read('PORT', readPort, DEFAULTS.port),
    host: read('HOST', readHost, DEFAULTS.host),
    eventsPort: read<number | undefined>('EVENTS_PORT', readPort, undefined),
    siteUrl: read('SITE_URL', readSiteOrigin, undefined),
    bookingUrl: read('BOOKING_URL', readHttpsUrl, undefined),
    // Unlike the others, an empty PUBLIC_LEAD_ENDPOINT is meaningful: demo mode.
    publicLeadEndpoint:
      rawLeadEndpoint !== undefined && rawLeadEndpoint.trim() === ''
        ? undefined
        : read('PUBLIC_LEAD_ENDPOINT', readLeadEndpoint, DEFAULTS.publicLeadEndpoint),
    crmWebhookUrl: read('CRM_WEBHOOK_URL', readSecretHttpUrl, undefined),
    crmWebhookSecret: read('CRM_WEBHOOK_SECRET', readWebhookSecret, undefined),
    crmLeadUrl: read('CRM_LEAD_URL', readCrmLeadUrl, undefined),
    calWebhookSecret: read('CAL_WEBHOOK_SECRET', readBookingSecret, undefined),
    calendlyWebhookSigningKey: read('CALENDLY_WEBHOOK_SIGNING_KEY', readBookingSecret, undefined),
    leadStore,
    leadRateLimitPerMinute: read('LEAD_RATE_LIMIT', readPositiveWholeNumber, DEFAULTS.leadRateLimitPerMinute),
    trustProxy: read('TRUST_PROXY', readTrustProxy, false),
    crmRetryDelaysMs: Object.freeze([...read('CRM_RETRY_DELAYS_MS', readDelayList, DEFAULTS.crmRetryDelaysMs)]),
    crmMaxPer10s: read('CRM_MAX_PER_10S', readPositiveWholeNumber, DEFAULTS.crmMaxPer10s),
    leadRetentionDays: read<number | undefined>('LEAD_RETENTION_DAYS', readPositiveWholeNumber, undefined),
    spamRetentionDays: read('SPAM_RETENTION_DAYS', readPositiveWholeNumber, DEFAULTS.spamRetentionDays),
    distDir: read('DIST_DIR', readNonBlank, DEFAULTS.distDir),
    logLevel: read('LOG_LEVEL', readLogLevel, DEFAULTS.logLevel),
    ...readNotificationSettings(env, read, errors),
    escalateAfterMinutes: Object.freeze([...readEscalateAfter(env, errors)]),
    escalateCheckSeconds: read('ESCALATE_CHECK_SECONDS', readCheckSeconds, DEFAULTS.escalateCheckSeconds),
    analyticsStore: readAnalyticsStore(read, leadStore),
    analyticsRawDays: read('ANALYTICS_RAW_DAYS', readPositiveWholeNumber, DEFAULTS.analyticsRawDays),
    siteHost: siteHostOf(env),
    jobPeriodSeconds: read<number | undefined>('JOB_PERIOD_SECONDS', readPositiveWholeNumber, undefined),
    drainSeconds: read('DRAIN_SECONDS', readDrainSeconds, DEFAULTS.drainSeconds),
  };

  if (data.eventsPort !== undefined && data.eventsPort === data.port)
    errors.push(`EVENTS_PORT must differ from PORT (both are ${data.port}): choose another port for the beacon listener`);
  return errors.length > 0 ? { success: false, errors } : { success: true, data: Object.freeze(data) };
}

/** The ladder's steps; a bad value is a start-up error in the ladder's own words, naming the setting. */
function readEscalateAfter(env: Environment, errors: string[]): readonly number[] {
  const raw = env.ESCALATE_AFTER_MINUTES?.trim();
  try {
    return parseEscalateAfter(raw === '' ? undefined : raw);
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error));
    return parseEscalateAfter(undefined);
  }
}

function readAnalyticsStore(read: ReturnType<typeof createSettingReader>, leadStore: LeadStoreConfig): LeadStoreConfig {
  if (leadStore.kind === 'postgres') return leadStore;
  // A lead store held in memory (tests) counts in memory too.
  const beside = leadStore.file === ':memory:' ? ':memory:' : path.join(path.dirname(leadStore.file), 'analytics.sqlite');
  const file = read('ANALYTICS_DB_FILE', readNonBlank, beside);
  return Object.freeze({ kind: 'sqlite' as const, file });
}

/** SITE_URL's host name, or "localhost" when it is not set (or not a URL: parseConfig reports that). */
function siteHostOf(env: Environment): string {
  const siteUrl = env.SITE_URL?.trim() ?? '';
  return URL.canParse(siteUrl) ? new URL(siteUrl).hostname : 'localhost';
}

type ReadSetting = <T>(name: string, reader: Reader<T>, fallback: T) => T;
type NotificationSettings = Pick<
  Config,
  'smtpUrl' | 'smtpAllowPlaintext' | 'notifyTo' | 'notifyFrom' | 'alertAfterMinutes' | 'alertWebhookUrl'
>;

// E-mail needs both a server and someone to write to: one without the other is a half-done setup
// that would otherwise send nothing without saying so.
function readNotificationSettings(env: Environment, read: ReadSetting, errors: string[]): NotificationSettings {
  const smtpUrl = read('SMTP_URL', readSmtpUrl, undefined);
  const notifyTo = read('NOTIFY_TO', readAddressList, []);
  const smtpSet = (env.SMTP_URL?.trim() ?? '') !== '';
  const toSet = (env.NOTIFY_TO?.trim() ?? '') !== '';
  if (smtpSet && !toSet) errors.push('SMTP_URL is set but NOTIFY_TO is not: name who receives the notification e-mails');
  if (toSet && !smtpSet) errors.push('NOTIFY_TO is set but SMTP_URL is not: name the SMTP server that sends the notification e-mails');
  const siteHost = siteHostOf(env);
  return {
    smtpUrl,
    smtpAllowPlaintext: read('SMTP_ALLOW_PLAINTEXT', readBoolean, false),
    notifyTo: Object.freeze([...notifyTo]),
    notifyFrom: read('NOTIFY_FROM', readMailbox, `${DEFAULTS.notifyFromName} <no-reply@${siteHost}>`),
    alertAfterMinutes: read('ALERT_AFTER_MINUTES', readPositiveWholeNumber, DEFAULTS.alertAfterMinutes),
    alertWebhookUrl: read('ALERT_WEBHOOK_URL', readAlertWebhookUrl, undefined),
  };
}

/**
 * Reads `.env` from `cwd` into process.env if it exists (real environment variables win, as
 * process.loadEnvFile never overrides them), then parses process.env.
 */
export function loadConfig(cwd: string = process.cwd()): ConfigResult {
  loadEnvFile(cwd);
  return parseConfig(process.env);
}

const WHOLE_NUMBER = /^\d+$/;

const readPort: Reader<number> = (raw, name) => {
  const port = Number(raw);
  return WHOLE_NUMBER.test(raw) && port >= 1 && port <= MAX_PORT
    ? { value: port }
    : { error: `${name} must be a whole number between 1 and ${MAX_PORT}, got ${quote(raw)}` };
};

const readPositiveWholeNumber: Reader<number> = (raw, name) => {
  const value = Number(raw);
  return WHOLE_NUMBER.test(raw) && value >= 1 && Number.isSafeInteger(value)
    ? { value }
    : { error: `${name} must be a whole number of at least 1, got ${quote(raw)}` };
};

/** The ladder's look: at least every second (each look reads the database), at most every five minutes. */
const MAX_CHECK_SECONDS = 300;
const readCheckSeconds: Reader<number> = (raw, name) => {
  const value = Number(raw);
  return WHOLE_NUMBER.test(raw) && value >= 1 && value <= MAX_CHECK_SECONDS
    ? { value }
    : { error: `${name} must be a whole number of seconds between 1 and ${MAX_CHECK_SECONDS}, got ${quote(raw)}` };
};

/** A drain longer than two minutes would outlast any orchestrator's stop timeout. */
const MAX_DRAIN_SECONDS = 120;
const readDrainSeconds: Reader<number> = (raw, name) => {
  const value = Number(raw);
  return WHOLE_NUMBER.test(raw) && value <= MAX_DRAIN_SECONDS
    ? { value }
    : { error: `${name} must be a whole number of seconds between 0 and ${MAX_DRAIN_SECONDS}, got ${quote(raw)}` };
};

/** 0 gives up at once when another process is migrating; an hour is more than any migration should take. */
const MAX_LOCK_WAIT_SECONDS = 3_600;
const readLockWaitSeconds: Reader<number> = (raw, name) => {
  const value = Number(raw);
  return WHOLE_NUMBER.test(raw) && value <= MAX_LOCK_WAIT_SECONDS
    ? { value }
    : { error: `${name} must be a whole number of seconds between 0 and ${MAX_LOCK_WAIT_SECONDS}, got ${quote(raw)}` };
};

const readDelayList: Reader<readonly number[]> = (raw, name) => {
  const parts = raw.split(',').map((part) => part.trim());
  const valid = parts.every((part) => WHOLE_NUMBER.test(part) && Number.isSafeInteger(Number(part)));
  return valid
    ? { value: parts.map(Number) }
    : {
        error: `${name} must be a comma-separated list of whole milliseconds (e.g. 5000,300000), got ${quote(raw)}`,
      };
};

const readHost: Reader<string> = (raw, name) =>
  /\s/.test(raw) ? { error: `${name} must be a host name or IP address, got ${quote(raw)}` } : { value: raw };

const readNonBlank: Reader<string> = (raw) => ({ value: raw });

const readBoolean: Reader<boolean> = (raw, name) => {
  const value = raw.toLowerCase();
  return value === 'true' || value === 'false'
    ? { value: value === 'true' }
    : { error: `${name} must be true or false, got ${quote(raw)}` };
};

const readLogLevel: Reader<LogLevel> = (raw, name) => {
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  return level !== undefined ? { value: level } : { error: `${name} must be one of ${LOG_LEVELS.join(', ')}, got ${quote(raw)}` };
};

const readCrmLeadUrl: Reader<string> = (raw, name) => {
  const error = checkCrmLeadUrlTemplate(raw, name);
  return error === undefined ? { value: raw } : { error };
};

// Webhook URLs often carry an access token, so the value is not repeated in the message.
const readSecretHttpUrl: Reader<string> = (raw, name) =>
  isHttpUrl(raw) ? { value: raw } : { error: `${name} must be an http(s) URL (value not shown: it may contain a token)` };

const readPostgresUrl: Reader<string> = (raw, name) => {
  const protocol = parseUrl(raw)?.protocol;
  return protocol === 'postgres:' || protocol === 'postgresql:'
    ? { value: raw }
    : { error: `${name} must be a postgres:// or postgresql:// URL (value not shown: it may contain a password)` };
};

// Standard Webhooks: a base64 key of 24 to 64 bytes, conventionally prefixed with `whsec_`.
const WEBHOOK_SECRET_PREFIX = 'whsec_';
const WEBHOOK_SECRET_BYTES = { min: 24, max: 64 } as const;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const readWebhookSecret: Reader<string> = (raw, name) => {
  const key = raw.startsWith(WEBHOOK_SECRET_PREFIX) ? raw.slice(WEBHOOK_SECRET_PREFIX.length) : raw;
  const bytes = BASE64.test(key) ? Buffer.from(key, 'base64').length : 0;
  return bytes >= WEBHOOK_SECRET_BYTES.min && bytes <= WEBHOOK_SECRET_BYTES.max
    ? { value: raw }
    : {
        error:
          `${name} must be a Standard Webhooks secret: "${WEBHOOK_SECRET_PREFIX}" followed by base64 of ` +
          `${WEBHOOK_SECRET_BYTES.min} to ${WEBHOOK_SECRET_BYTES.max} bytes (value not shown)`,
      };
};

// A booking provider's webhook secret is whatever the operator typed or the provider generated; a
// short one can be guessed and then anyone could book meetings into the console, and a space is
// almost always a copy-and-paste slip that would make every signature fail.
const BOOKING_SECRET_MIN_CHARS = 16;
const readBookingSecret: Reader<string> = (raw, name) =>
  raw.length >= BOOKING_SECRET_MIN_CHARS && !/[\s\p{Cc}]/u.test(raw)
    ? { value: raw }
    : { error: `${name} must be at least ${BOOKING_SECRET_MIN_CHARS} characters with no spaces (value not shown)` };

// The password in an SMTP URL must never reach a log or a message, so the value is not repeated.
// Settings after a "?" would reach the mail library, which lets them switch encryption off
// (requireTLS=false, ignoreTLS=true, tls.rejectUnauthorized=false), so the URL may not carry any.
const readSmtpUrl: Reader<string> = (raw, name) => {
  const url = parseUrl(raw);
  if (!((url?.protocol === 'smtp:' || url?.protocol === 'smtps:') && url.hostname !== ''))
    return {
      error: `${name} must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587 (value not shown: it may contain a password)`,
    };
  return raw.includes('?')
    ? {
        error: `${name} must not have settings after a "?": encryption is decided by the server (SMTP_ALLOW_PLAINTEXT), not by the URL (value not shown: it may contain a password)`,
      }
    : { value: raw };
};

const readAddressList: Reader<readonly string[]> = (raw, name) => {
  const addresses = raw.split(',').map((part) => part.trim());
  const wrong = addresses.filter((address) => !isEmailAddress(address));
  return wrong.length === 0
    ? { value: addresses }
    : { error: `${name} must be one or more e-mail addresses separated by commas; not an address: ${wrong.map(quote).join(', ')}` };
};

// `Name <address>` or a bare address. Line breaks would let the value add headers to every e-mail.
const MAILBOX = /^(?:([^<>\r\n]*?)\s*<([^<>\s]+)>|([^<>\s]+))$/;

const readMailbox: Reader<string> = (raw, name) => {
  const match = MAILBOX.exec(raw);
  const address = match?.[2] ?? match?.[3];
  return address !== undefined && isEmailAddress(address)
    ? { value: raw }
    : { error: `${name} must be an e-mail address or "Name <address>", such as "Lead console <no-reply@example.com>", got ${quote(raw)}` };
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// Alerts name leads and errors, so they travel encrypted unless they never leave the machine.
const readAlertWebhookUrl: Reader<string> = (raw, name) => {
  const url = parseUrl(raw);
  const allowed = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  return allowed
    ? { value: raw }
    : { error: `${name} must be an https:// URL (http:// only for 127.0.0.1, ::1 or localhost) (value not shown: it may contain a token)` };
};

function parseUrl(raw: string): URL | undefined {
  return URL.canParse(raw) ? new URL(raw) : undefined;
}

function quote(raw: string): string {
  return JSON.stringify(raw);
}
