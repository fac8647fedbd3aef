import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseConfig } from './config.ts';
import type { Config, Environment } from './config.ts';

function parseValid(env: Environment): Config {
  const result = parseConfig(env);
  if (!result.success) throw new Error(`expected a valid config, got: ${result.errors.join('; ')}`);
  return result.data;
}

function parseErrors(env: Environment): readonly string[] {
  const result = parseConfig(env);
  if (result.success) throw new Error('expected configuration errors');
  return result.errors;
}

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;

describe('parseConfig', () => {
  it('uses the contract defaults for an empty environment', () => {
    expect(parseValid({})).toEqual({
      port: 4321,
      host: '127.0.0.1',
      siteUrl: undefined,
      bookingUrl: undefined,
      publicLeadEndpoint: '/api/leads',
      crmWebhookUrl: undefined,
      crmWebhookSecret: undefined,
      leadStore: { kind: 'sqlite', file: './data/leads.sqlite' },
      leadRateLimitPerMinute: 10,
      trustProxy: false,
      crmRetryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
      crmMaxPer10s: 90,
      crmLeadUrl: undefined,
      leadRetentionDays: undefined,
      spamRetentionDays: 30,
      distDir: 'dist',
      logLevel: 'info',
      smtpUrl: undefined,
      smtpAllowPlaintext: false,
      notifyTo: [],
      notifyFrom: 'Lead console <no-reply@localhost>',
      alertAfterMinutes: 15,
      alertWebhookUrl: undefined,
      escalateAfterMinutes: [5, 15, 60],
      escalateCheckSeconds: 15,
      analyticsStore: { kind: 'sqlite', file: 'data/analytics.sqlite' },
      analyticsRawDays: 30,
      siteHost: 'localhost',
      jobPeriodSeconds: undefined,
      drainSeconds: 5,
    });
  });

  it('reads every setting', () => {
    expect(
      parseValid({
        PORT: '8080',
        HOST: '0.0.0.0',
        SITE_URL: 'https://example.com/',
        BOOKING_URL: 'https://cal.example.com/book',
        PUBLIC_LEAD_ENDPOINT: 'https://hooks.example.com/lead',
        CRM_WEBHOOK_URL: 'https://crm.example.com/hook?token=abc',
        CRM_WEBHOOK_SECRET: SECRET,
        CRM_LEAD_URL: 'https://app.example-crm.com/contacts?lead={lead_id}',
        DATABASE_URL: 'postgres://user:pw@db:5432/leads',
        LEAD_RATE_LIMIT: '30',
        TRUST_PROXY: '1',
        CRM_RETRY_DELAYS_MS: '1000, 2000,3000',
        CRM_MAX_PER_10S: '50',
        LEAD_RETENTION_DAYS: '365',
        SPAM_RETENTION_DAYS: '7',
        DIST_DIR: '/srv/site/dist',
        LOG_LEVEL: 'WARN',
        SMTP_URL: 'smtps://mailer:hunter2@mail.example.com:465',
        SMTP_ALLOW_PLAINTEXT: 'TRUE',
        NOTIFY_TO: 'sales@example.com, owner@example.com',
        NOTIFY_FROM: 'Leads <leads@example.com>',
        ALERT_AFTER_MINUTES: '30',
        ALERT_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
        ESCALATE_AFTER_MINUTES: ' 2, 10, 30 ',
        ESCALATE_CHECK_SECONDS: '5',
        ANALYTICS_RAW_DAYS: '90',
        JOB_PERIOD_SECONDS: '2',
        DRAIN_SECONDS: '0',
        MIGRATION_LOCK_WAIT_SECONDS: '30',
      }),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      siteUrl: 'https://example.com',
      bookingUrl: 'https://cal.example.com/book',
      publicLeadEndpoint: 'https://hooks.example.com/lead',
      crmWebhookUrl: 'https://crm.example.com/hook?token=abc',
      crmWebhookSecret: SECRET,
      crmLeadUrl: 'https://app.example-crm.com/contacts?lead={lead_id}',
      leadStore: { kind: 'postgres', url: 'postgres://user:pw@db:5432/leads', migrationLockWaitMs: 30_000 },
      leadRateLimitPerMinute: 30,
      trustProxy: 1,
      crmRetryDelaysMs: [1000, 2000, 3000],
      crmMaxPer10s: 50,
      leadRetentionDays: 365,
      spamRetentionDays: 7,
      distDir: '/srv/site/dist',
      logLevel: 'warn',
      smtpUrl: 'smtps://mailer:hunter2@mail.example.com:465',
      smtpAllowPlaintext: true,
      notifyTo: ['sales@example.com', 'owner@example.com'],
      notifyFrom: 'Leads <leads@example.com>',
      alertAfterMinutes: 30,
      alertWebhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX',
      escalateAfterMinutes: [2, 10, 30],
      escalateCheckSeconds: 5,
      analyticsStore: { kind: 'postgres', url: 'postgres://user:pw@db:5432/leads', migrationLockWaitMs: 30_000 },
      analyticsRawDays: 90,
      siteHost: 'example.com',
      jobPeriodSeconds: 2,
      drainSeconds: 0,
    });
  });

  it('keeps counted visits in a SQLite file of their own beside the lead store, or where ANALYTICS_DB_FILE says', () => {
    expect(parseValid({ LEADS_DB_FILE: '/var/lib/site/leads.sqlite' }).analyticsStore).toEqual({
      kind: 'sqlite',
      file: '/var/lib/site/analytics.sqlite',
    });
    expect(parseValid({ ANALYTICS_DB_FILE: '/srv/visits.sqlite' }).analyticsStore).toEqual({ kind: 'sqlite', file: '/srv/visits.sqlite' });
    expect(parseValid({ LEADS_DB_FILE: ':memory:' }).analyticsStore).toEqual({ kind: 'sqlite', file: ':memory:' });
  });

  it('treats empty values as unset, except PUBLIC_LEAD_ENDPOINT where empty means demo mode', () => {
    const config = parseValid({ PORT: '', HOST: ' ', LOG_LEVEL: '', PUBLIC_LEAD_ENDPOINT: '' });
    expect(config.port).toBe(DEFAULTS.port);
    expect(config.host).toBe(DEFAULTS.host);
    expect(config.logLevel).toBe('info');
    expect(config.publicLeadEndpoint).toBeUndefined();
  });

  it.each([
    [{ LEADS_DB_FILE: '/var/lib/leads.db' }, { kind: 'sqlite', file: '/var/lib/leads.db' }],
    [
      { DATABASE_URL: 'postgresql://db/leads', LEADS_DB_FILE: '/ignored.db' },
      { kind: 'postgres', url: 'postgresql://db/leads', migrationLockWaitMs: 120_000 },
    ],
  ])('chooses the lead store from %j', (env, leadStore) => {
    expect(parseValid(env).leadStore).toEqual(leadStore);
  });

  it.each([
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['loopback, 10.0.0.0/8 ,fd00::/8', ['loopback', '10.0.0.0/8', 'fd00::/8']],
  ])('accepts TRUST_PROXY %j', (raw, trustProxy) => {
    expect(parseValid({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy);
  });

  it.each([
    ['1', 1],
    ['65535', 65_535],
    [' 4321 ', 4321],
  ])('accepts PORT %j', (raw, port) => {
    expect(parseValid({ PORT: raw }).port).toBe(port);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number between 1 and 65535, got "abc"'],
    [{ PORT: '0' }, 'PORT must be a whole number between 1 and 65535, got "0"'],
    [{ PORT: '65536' }, 'PORT must be a whole number between 1 and 65535, got "65536"'],
    [{ PORT: '80.5' }, 'PORT must be a whole number between 1 and 65535, got "80.5"'],
    [{ HOST: 'local host' }, 'HOST must be a host name or IP address, got "local host"'],
    [{ SITE_URL: 'example.com' }, 'SITE_URL must be an origin such as https://example.com (no path), got "example.com"'],
    [{ SITE_URL: 'ftp://example.com' }, 'SITE_URL must be an origin such as https://example.com (no path), got "ftp://example.com"'],
    [
      { SITE_URL: 'https://example.com/site' },
      'SITE_URL must be an origin such as https://example.com (no path), got "https://example.com/site"',
    ],
    [
      { BOOKING_URL: 'javascript:alert(1)' },
      'BOOKING_URL must be an https:// URL such as https://cal.example.com/book, got "javascript:alert(1)"',
    ],
    [
      { BOOKING_URL: 'http://cal.example.com' },
      'BOOKING_URL must be an https:// URL such as https://cal.example.com/book, got "http://cal.example.com"',
    ],
    [
      { PUBLIC_LEAD_ENDPOINT: 'api/leads' },
      'PUBLIC_LEAD_ENDPOINT must be a path such as /api/leads, an http(s) URL, or empty for demo mode, got "api/leads"',
    ],
    [
      { PUBLIC_LEAD_ENDPOINT: '//evil.example/leads' },
      'PUBLIC_LEAD_ENDPOINT must be a path such as /api/leads, an http(s) URL, or empty for demo mode, got "//evil.example/leads"',
    ],
    [{ CRM_WEBHOOK_URL: 'hooks.example.com/x' }, 'CRM_WEBHOOK_URL must be an http(s) URL (value not shown: it may contain a token)'],
    [
      { CRM_WEBHOOK_SECRET: 'hunter2' },
      'CRM_WEBHOOK_SECRET must be a Standard Webhooks secret: "whsec_" followed by base64 of 24 to 64 bytes (value not shown)',
    ],
    [
      { DATABASE_URL: 'mysql://root:pw@db/leads' },
      'DATABASE_URL must be a postgres:// or postgresql:// URL (value not shown: it may contain a password)',
    ],
    [
      { CRM_LEAD_URL: 'https://crm.example.com/contacts' },
      'CRM_LEAD_URL must contain {lead_id} or {email}, where each lead\'s own value goes (e.g. https://crm.example.com/contacts?search={email}), got "https://crm.example.com/contacts"',
    ],
    [
      { CRM_LEAD_URL: 'https://crm.example.com/contacts/{id}' },
      'CRM_LEAD_URL can only be filled in with {lead_id} or {email}; it also names {id}, got "https://crm.example.com/contacts/{id}"',
    ],
    [
      { CRM_LEAD_URL: 'javascript:alert({email})' },
      'CRM_LEAD_URL must be an http(s) address whose host comes before {lead_id} or {email} (e.g. https://crm.example.com/contacts/{lead_id}), got "javascript:alert({email})"',
    ],
    [
      { CRM_LEAD_URL: 'https://{email}/profile' },
      'CRM_LEAD_URL must be an http(s) address whose host comes before {lead_id} or {email} (e.g. https://crm.example.com/contacts/{lead_id}), got "https://{email}/profile"',
    ],
    [{ LEAD_RATE_LIMIT: '0' }, 'LEAD_RATE_LIMIT must be a whole number of at least 1, got "0"'],
    [{ LEAD_RATE_LIMIT: 'ten' }, 'LEAD_RATE_LIMIT must be a whole number of at least 1, got "ten"'],
    [
      { CRM_RETRY_DELAYS_MS: '5s,10s' },
      'CRM_RETRY_DELAYS_MS must be a comma-separated list of whole milliseconds (e.g. 5000,300000), got "5s,10s"',
    ],
    [
      { CRM_RETRY_DELAYS_MS: '1000,,2000' },
      'CRM_RETRY_DELAYS_MS must be a comma-separated list of whole milliseconds (e.g. 5000,300000), got "1000,,2000"',
    ],
    [
      { TRUST_PROXY: 'true' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and ranges (e.g. 127.0.0.1,10.0.0.0/8, or loopback), got "true"',
    ],
    [
      { TRUST_PROXY: '0' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and ranges (e.g. 127.0.0.1,10.0.0.0/8, or loopback), got "0"',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and ranges (e.g. 127.0.0.1,10.0.0.0/8, or loopback), got "10.0.0.0/33"',
    ],
    [
      { TRUST_PROXY: 'proxy.internal' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and ranges (e.g. 127.0.0.1,10.0.0.0/8, or loopback), got "proxy.internal"',
    ],
    [{ CRM_MAX_PER_10S: '0' }, 'CRM_MAX_PER_10S must be a whole number of at least 1, got "0"'],
    [{ CRM_MAX_PER_10S: '9.5' }, 'CRM_MAX_PER_10S must be a whole number of at least 1, got "9.5"'],
    [{ LEAD_RETENTION_DAYS: 'forever' }, 'LEAD_RETENTION_DAYS must be a whole number of at least 1, got "forever"'],
    [{ LEAD_RETENTION_DAYS: '0' }, 'LEAD_RETENTION_DAYS must be a whole number of at least 1, got "0"'],
    [{ SPAM_RETENTION_DAYS: '-30' }, 'SPAM_RETENTION_DAYS must be a whole number of at least 1, got "-30"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  ])('rejects %j with a clear message', (env, message) => {
    expect(parseErrors(env)).toEqual([message]);
  });

  it('never repeats secret values in its messages', () => {
    const errors = parseErrors({
      CRM_WEBHOOK_SECRET: 'topsecret',
      DATABASE_URL: 'mysql://root:hunter2@db/leads',
      CRM_WEBHOOK_URL: 'not a url token=abc123',
    });
    expect(errors).toHaveLength(3);
    for (const secret of ['topsecret', 'hunter2', 'abc123']) expect(errors.join('\n')).not.toContain(secret);
  });

  describe('notifications', () => {
    it('sends from no-reply at the site host unless NOTIFY_FROM says otherwise', () => {
      expect(parseValid({ SITE_URL: 'https://www.example.com' }).notifyFrom).toBe('Lead console <no-reply@www.example.com>');
      expect(parseValid({ NOTIFY_FROM: 'alerts@example.com' }).notifyFrom).toBe('alerts@example.com');
    });

    it('allows a plain-http alert webhook only on this machine', () => {
      expect(parseValid({ ALERT_WEBHOOK_URL: 'http://127.0.0.1:9000/hook' }).alertWebhookUrl).toBe('http://127.0.0.1:9000/hook');
      expect(parseValid({ ALERT_WEBHOOK_URL: 'http://localhost/hook' }).alertWebhookUrl).toBe('http://localhost/hook');
      expect(parseErrors({ ALERT_WEBHOOK_URL: 'http://hooks.example.com/x?token=abc123' })).toEqual([
        'ALERT_WEBHOOK_URL must be an https:// URL (http:// only for 127.0.0.1, ::1 or localhost) (value not shown: it may contain a token)',
      ]);
    });

    it.each([
      [
        { SMTP_URL: 'http://mail.example.com', NOTIFY_TO: 'a@example.com' },
        'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587 (value not shown: it may contain a password)',
      ],
      [
        { SMTP_URL: 'smtp://u:hunter2@mail.example.com:587?requireTLS=false&ignoreTLS=true', NOTIFY_TO: 'a@example.com' },
        'SMTP_URL must not have settings after a "?": encryption is decided by the server (SMTP_ALLOW_PLAINTEXT), not by the URL (value not shown: it may contain a password)',
      ],
      [
        { SMTP_URL: 'smtps://u:p@mail.example.com:465?tls.rejectUnauthorized=false', NOTIFY_TO: 'a@example.com' },
        'SMTP_URL must not have settings after a "?": encryption is decided by the server (SMTP_ALLOW_PLAINTEXT), not by the URL (value not shown: it may contain a password)',
      ],
      [{ SMTP_ALLOW_PLAINTEXT: 'yes' }, 'SMTP_ALLOW_PLAINTEXT must be true or false, got "yes"'],
      [{ SMTP_URL: 'smtp://mail.example.com' }, 'SMTP_URL is set but NOTIFY_TO is not: name who receives the notification e-mails'],
      [{ NOTIFY_TO: 'a@example.com' }, 'NOTIFY_TO is set but SMTP_URL is not: name the SMTP server that sends the notification e-mails'],
      [
        { SMTP_URL: 'smtp://mail.example.com', NOTIFY_TO: 'a@example.com, sales, ' },
        'NOTIFY_TO must be one or more e-mail addresses separated by commas; not an address: "sales", ""',
      ],
      [
        { NOTIFY_FROM: 'Leads <leads@example.com>\r\nBcc: x@evil.test' },
        'NOTIFY_FROM must be an e-mail address or "Name <address>", such as "Lead console <no-reply@example.com>", got "Leads <leads@example.com>\\r\\nBcc: x@evil.test"',
      ],
      [{ ALERT_AFTER_MINUTES: '0' }, 'ALERT_AFTER_MINUTES must be a whole number of at least 1, got "0"'],
      [{ ALERT_AFTER_MINUTES: '1.5' }, 'ALERT_AFTER_MINUTES must be a whole number of at least 1, got "1.5"'],
      [{ ESCALATE_AFTER_MINUTES: '15,5,60' }, expect.stringMatching(/^ESCALATE_AFTER_MINUTES must be three whole numbers .*"15,5,60"/)],
      [{ ESCALATE_AFTER_MINUTES: '5,15' }, expect.stringMatching(/^ESCALATE_AFTER_MINUTES must be three whole numbers .*"5,15"/)],
      [{ ESCALATE_CHECK_SECONDS: '0' }, 'ESCALATE_CHECK_SECONDS must be a whole number of seconds between 1 and 300, got "0"'],
      [{ ESCALATE_CHECK_SECONDS: '301' }, 'ESCALATE_CHECK_SECONDS must be a whole number of seconds between 1 and 300, got "301"'],
      [{ JOB_PERIOD_SECONDS: '0.5' }, 'JOB_PERIOD_SECONDS must be a whole number of at least 1, got "0.5"'],
      [{ DRAIN_SECONDS: '121' }, 'DRAIN_SECONDS must be a whole number of seconds between 0 and 120, got "121"'],
      [{ DRAIN_SECONDS: '-1' }, 'DRAIN_SECONDS must be a whole number of seconds between 0 and 120, got "-1"'],
      [{ DRAIN_SECONDS: '2.5' }, 'DRAIN_SECONDS must be a whole number of seconds between 0 and 120, got "2.5"'],
      [
        { MIGRATION_LOCK_WAIT_SECONDS: '3601' },
        'MIGRATION_LOCK_WAIT_SECONDS must be a whole number of seconds between 0 and 3600, got "3601"',
      ],
      [
        { MIGRATION_LOCK_WAIT_SECONDS: 'soon' },
        'MIGRATION_LOCK_WAIT_SECONDS must be a whole number of seconds between 0 and 3600, got "soon"',
      ],
    ])('rejects %j with a clear message', (env, message) => {
      expect(parseErrors(env)).toEqual([message]);
    });

    it('never repeats the SMTP password or a webhook token', () => {
      const errors = parseErrors({ SMTP_URL: 'ftp://mailer:hunter2@mail.example.com', ALERT_WEBHOOK_URL: 'ftp://x/abc123' });
      expect(errors.join('\n')).not.toMatch(/hunter2|abc123/);
    });
  });

  it('takes beacons on a port of their own only when EVENTS_PORT names one other than PORT', () => {
    expect(parseValid({}).eventsPort).toBeUndefined();
    expect(parseValid({ PORT: '8080', EVENTS_PORT: '8081' }).eventsPort).toBe(8081);
    expect(parseErrors({ PORT: '8080', EVENTS_PORT: '8080' })).toEqual([
      'EVENTS_PORT must differ from PORT (both are 8080): choose another port for the beacon listener',
    ]);
    expect(parseErrors({ EVENTS_PORT: 'beacons' })).toEqual(['EVENTS_PORT must be a whole number between 1 and 65535, got "beacons"']);
  });

  it('reports every bad setting at once', () => {
    expect(parseErrors({ PORT: 'abc', LOG_LEVEL: 'loud', LEAD_RATE_LIMIT: '-1' })).toHaveLength(3);
  });

  it('accepts a Standard Webhooks secret with or without the whsec_ prefix', () => {
    const key = Buffer.alloc(24, 9).toString('base64');
    expect(parseValid({ CRM_WEBHOOK_SECRET: key }).crmWebhookSecret).toBe(key);
    expect(parseValid({ CRM_WEBHOOK_SECRET: `whsec_${key}` }).crmWebhookSecret).toBe(`whsec_${key}`);
  });

  it('returns a deeply frozen object', () => {
    const config = parseValid({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.leadStore)).toBe(true);
    expect(Object.isFrozen(config.crmRetryDelaysMs)).toBe(true);
    expect(Object.isFrozen(config.notifyTo)).toBe(true);
  });

  it('does not read process.env', () => {
    const original = process.env.PORT;
    process.env.PORT = '9999';
    try {
      expect(parseValid({}).port).toBe(4321);
    } finally {
      if (original === undefined) delete process.env.PORT;
      else process.env.PORT = original;
    }
  });
});

describe('the documented settings', () => {
  // Every name parseConfig reads, recorded through a Proxy so a new setting cannot go undocumented.
  function settingsRead(): string[] {
    const names = new Set<string>();
    const recorder = new Proxy({} as Environment, {
      get: (_target, name) => {
        if (typeof name === 'string') names.add(name);
        return undefined;
      },
    });
    parseConfig(recorder);
    return [...names].sort();
  }

  const root = path.resolve(import.meta.dirname, '..');

  it('are all listed in .env.example', () => {
    const listed: string[] = readFileSync(path.join(root, '.env.example'), 'utf8').match(/^[A-Z][A-Z0-9_]*(?==)/gm) ?? [];
    expect(settingsRead().filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('are all in the README settings table', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const rows = readme.split('\n').filter((line) => line.startsWith('| `'));
    const documented: string[] = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
    );
    expect(settingsRead().filter((name) => !documented.includes(name))).toEqual([]);
  });
});
