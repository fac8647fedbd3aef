import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// Meetings the booking provider (Cal.com or Calendly) told us about through its webhooks, and the
// webhook deliveries already taken (a provider retries a delivery it thinks failed; the second is
// answered as the first and changes nothing). A meeting that matches no lead is kept with no lead,
// never dropped. Never edit a released step: a change is a new step under the next version.

const TABLES = (id: string, time: string) => `
    CREATE TABLE bookings (
      id ${id},
      provider TEXT NOT NULL,
      -- The provider's own id of the meeting (Cal.com's booking uid, Calendly's invitee URI).
      provider_uid TEXT NOT NULL,
      lead_id TEXT REFERENCES leads (id) ON DELETE SET NULL,
      matched_by TEXT,
      name TEXT NOT NULL,
      email TEXT NOT NULL,
      starts_at ${time} NOT NULL,
      ends_at ${time},
      status TEXT NOT NULL,
      last_change TEXT NOT NULL,
      received_at ${time} NOT NULL,
      updated_at ${time} NOT NULL,
      UNIQUE (provider, provider_uid)
    );
    CREATE INDEX bookings_lead ON bookings (lead_id);
    CREATE INDEX bookings_received ON bookings (received_at);
    CREATE TABLE booking_webhooks (
      provider TEXT NOT NULL,
      -- What makes a delivery the same one again: the provider's event id, else a hash of the body.
      delivery_key TEXT NOT NULL,
      booking_id BIGINT,
      received_at ${time} NOT NULL,
      PRIMARY KEY (provider, delivery_key)
    );
`;

// Erasing a person deletes their meetings by address (ERASE_BOOKINGS): an index
// keeps that a lookup however many meetings are kept.
const BY_EMAIL = `
    CREATE INDEX bookings_email ON bookings (email);
`;

// Erasing a person keeps their meetings' provider ids as tombstones (name and address blanked,
// erased_at set), so a later delivery about an erased meeting is recognised and ignored.
const ERASED = (time: string) => `
    ALTER TABLE bookings ADD COLUMN erased_at ${time};
`;

export const BOOKING_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    { version: 10, sql: TABLES('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER') },
    { version: 10, sql: BY_EMAIL },
    { version: 10, sql: ERASED('INTEGER') },
  ],
  postgres: [
    { version: 10, sql: TABLES('BIGSERIAL PRIMARY KEY', 'BIGINT') },
    { version: 10, sql: BY_EMAIL },
    { version: 10, sql: ERASED('BIGINT') },
  ],
};
