import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The inbox's columns and indexes: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const INBOX_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // The inbox's columns of a lead, read from its payload, and the indexes its filters and the
      // retention purge read (the audit log and the CRM pace came in the same version).
      version: 4,
      sql: `
      ALTER TABLE leads ADD COLUMN name TEXT;
      ALTER TABLE leads ADD COLUMN company TEXT;
      ALTER TABLE leads ADD COLUMN utm_campaign TEXT;
      ALTER TABLE leads ADD COLUMN utm_source TEXT;
      UPDATE leads SET
        name = CASE WHEN json_type(payload, '$.name') = 'text' THEN json_extract(payload, '$.name') END,
        company = CASE WHEN json_type(payload, '$.company') = 'text' THEN json_extract(payload, '$.company') END,
        utm_campaign = CASE WHEN json_type(payload, '$.utm_campaign') = 'text' THEN json_extract(payload, '$.utm_campaign') END,
        utm_source = CASE WHEN json_type(payload, '$.utm_source') = 'text' THEN json_extract(payload, '$.utm_source') END
      WHERE json_valid(payload);
      DROP INDEX leads_email;
      DROP INDEX leads_received_at;
      CREATE INDEX leads_newest ON leads (received_at, id);
      CREATE INDEX leads_email_newest ON leads (email, received_at, id);
      CREATE INDEX leads_source_newest ON leads (source, received_at, id);
      CREATE INDEX leads_campaign_newest ON leads (utm_campaign, received_at, id);
      CREATE INDEX leads_utm_source_newest ON leads (utm_source, received_at, id);
      -- The lead's received_at, which never changes, beside its state: one index then serves the
      -- inbox filtered by state, the oldest lead waiting and the retention purge.
      ALTER TABLE deliveries ADD COLUMN received_at INTEGER NOT NULL DEFAULT 0;
      UPDATE deliveries SET received_at = (SELECT received_at FROM leads WHERE leads.id = deliveries.lead_id);
      CREATE INDEX deliveries_state_newest ON deliveries (state, received_at, lead_id);
      CREATE INDEX delivery_attempts_outcome ON delivery_attempts (outcome, attempted_at);
    `,
    },
    {
      // The inbox's first screen lists every lead but spam, newest first. Without an index of only those,
      // each page walks all leads and skips spam one by one: after a flood of spam, every lead of it.
      version: 8,
      sql: `CREATE INDEX deliveries_not_spam_newest ON deliveries (received_at, lead_id) WHERE state <> 'spam';`,
    },
  ],
  postgres: [
    {
      // The inbox's columns of a lead, read from its payload, and the indexes its filters and the
      // retention purge read (the audit log and the CRM pace came in the same version).
      version: 4,
      sql: `
      ALTER TABLE leads ADD COLUMN name TEXT, ADD COLUMN company TEXT, ADD COLUMN utm_campaign TEXT, ADD COLUMN utm_source TEXT;
      UPDATE leads SET
        name = CASE WHEN jsonb_typeof(payload::jsonb -> 'name') = 'string' THEN payload::jsonb ->> 'name' END,
        company = CASE WHEN jsonb_typeof(payload::jsonb -> 'company') = 'string' THEN payload::jsonb ->> 'company' END,
        utm_campaign = CASE WHEN jsonb_typeof(payload::jsonb -> 'utm_campaign') = 'string' THEN payload::jsonb ->> 'utm_campaign' END,
        utm_source = CASE WHEN jsonb_typeof(payload::jsonb -> 'utm_source') = 'string' THEN payload::jsonb ->> 'utm_source' END;
      DROP INDEX leads_email;
      DROP INDEX leads_received_at;
      CREATE INDEX leads_newest ON leads (received_at, id);
      CREATE INDEX leads_email_newest ON leads (email, received_at, id);
      CREATE INDEX leads_source_newest ON leads (source, received_at, id);
      CREATE INDEX leads_campaign_newest ON leads (utm_campaign, received_at, id);
      CREATE INDEX leads_utm_source_newest ON leads (utm_source, received_at, id);
      -- The lead's received_at, which never changes, beside its state: one index then serves the
      -- inbox filtered by state, the oldest lead waiting and the retention purge.
      ALTER TABLE deliveries ADD COLUMN received_at BIGINT NOT NULL DEFAULT 0;
      UPDATE deliveries d SET received_at = l.received_at FROM leads l WHERE l.id = d.lead_id;
      CREATE INDEX deliveries_state_newest ON deliveries (state, received_at, lead_id);
      CREATE INDEX delivery_attempts_outcome ON delivery_attempts (outcome, attempted_at);
    `,
    },
    {
      // The inbox's first screen lists every lead but spam, newest first. Without an index of only those,
      // each page walks all leads and skips spam one by one: after a flood of spam, every lead of it.
      version: 8,
      sql: `CREATE INDEX deliveries_not_spam_newest ON deliveries (received_at, lead_id) WHERE state <> 'spam';`,
    },
  ],
};
