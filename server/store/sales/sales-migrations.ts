import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The sales queue's tables: each engine's steps, tagged with the lead database's schema version they
// came in. Never edit a released step: a change is a new step under the next version.
//
// lead_sales: one row per placed lead (its owner, sales status and clock), gone with its lead. The
// owner is an account id without a foreign key: a person removed or demoted loses their leads
// through releaseOwner, which records each one and audits it, never silently by a cascade. A lead
// joined to an earlier one of the same person points at it (set back to none if that lead is
// erased). received_at is the lead's, copied so the queue's indexes hold it; phone_key (the phone's
// digits) and email_domain are read from the lead when it is placed, for repeat and domain matching.
// lead_activities: the timeline, gone with its lead. assignment_rules: tried in `position` order.
// sales_people: a person's working hours and round-robin turn, gone with their account; time_zone
// and windows stay empty until the person sets them (they work the default hours till then).

const TABLES = (id: string, time: string, flag: string, no: string) => `
    CREATE TABLE lead_sales (
      lead_id TEXT PRIMARY KEY REFERENCES leads (id) ON DELETE CASCADE,
      received_at ${time} NOT NULL,
      owner_id TEXT,
      assigned_at ${time},
      status TEXT NOT NULL,
      lost_reason TEXT,
      clock_starts_at ${time} NOT NULL,
      first_touch_at ${time},
      joined_to TEXT REFERENCES leads (id) ON DELETE SET NULL,
      escalation_step INTEGER NOT NULL DEFAULT 0,
      phone_key TEXT,
      email_domain TEXT NOT NULL,
      placed_at ${time} NOT NULL,
      updated_at ${time} NOT NULL
    );
    -- "Call now" and the escalation ladder: untouched leads of the same person's first visit, oldest
    -- first, by owner (or without one) and all together.
    CREATE INDEX lead_sales_untouched_by_owner ON lead_sales (owner_id, received_at, lead_id)
      WHERE first_touch_at IS NULL AND joined_to IS NULL;
    CREATE INDEX lead_sales_untouched ON lead_sales (received_at, lead_id) WHERE first_touch_at IS NULL AND joined_to IS NULL;
    CREATE INDEX lead_sales_received ON lead_sales (received_at, lead_id);
    CREATE INDEX lead_sales_owner ON lead_sales (owner_id, status);
    -- Only the repeats, so the queue (leads that joined none) is never read through it.
    CREATE INDEX lead_sales_joined ON lead_sales (joined_to, received_at) WHERE joined_to IS NOT NULL;
    CREATE INDEX lead_sales_phone ON lead_sales (phone_key, received_at, lead_id) WHERE phone_key IS NOT NULL;
    CREATE INDEX lead_sales_domain ON lead_sales (email_domain, assigned_at, lead_id) WHERE owner_id IS NOT NULL;
    CREATE TABLE lead_activities (
      id ${id},
      lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
      at ${time} NOT NULL,
      kind TEXT NOT NULL,
      actor_id TEXT,
      actor TEXT NOT NULL,
      detail TEXT NOT NULL
    );
    CREATE INDEX lead_activities_lead ON lead_activities (lead_id, id);
    CREATE TABLE assignment_rules (
      id ${id},
      position INTEGER NOT NULL,
      kind TEXT NOT NULL,
      value TEXT NOT NULL,
      owner_id TEXT
    );
    CREATE TABLE sales_people (
      account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
      time_zone TEXT,
      windows TEXT,
      away ${flag} NOT NULL DEFAULT ${no},
      last_assigned_at ${time},
      updated_at ${time} NOT NULL
    );
`;

export const SALES_MIGRATIONS: ConcernMigrations = {
  sqlite: [{ version: 9, sql: TABLES('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER', 'INTEGER', '0') }],
  postgres: [{ version: 9, sql: TABLES('BIGSERIAL PRIMARY KEY', 'BIGINT', 'BOOLEAN', 'FALSE') }],
};
