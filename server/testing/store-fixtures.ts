import type { NewAccount } from '../../back-office/accounts/account-store.ts';
import type { DeliveryResult, NewLead } from '../store/outbox/outbox-store.ts';

// What the store contract suites share: a clock, leads, delivery results and accounts to store.

export const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
export const LEASE_MS = 60_000;
// What a new lead may wait while downloads read: its commit on a machine shared with other work.
export const LEAD_WAIT_BOUND_MS = 1_000;

let sequence = 0;
export function newLead(overrides: Partial<NewLead> = {}): NewLead {
  sequence += 1;
  const id = `lead-${String(sequence).padStart(5, '0')}`;
  return {
    id,
    receivedAt: T0 + sequence,
    source: 'Homepage Simple Lead Form',
    email: `Person${sequence}@Example.com`,
    payload: { name: "Seán O'Brien", email: `person${sequence}@example.com`, company: 'Smith & Sons', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

export function delivered(leadId: string, owner: string, at: number, status = 200): DeliveryResult {
  return {
    leadId,
    owner,
    attempt: { attemptedAt: at, durationMs: 12, status, responseBody: '{"ok":true}', error: undefined },
    nextState: 'delivered',
    nextAttemptAt: undefined,
  };
}

export function newAccount(overrides: Partial<NewAccount> = {}): NewAccount {
  return { email: 'ana@example.com', role: 'sales', passwordHash: 'scrypt$hash-of-the-first-password', now: T0, ...overrides };
}

export const HOUR = 60 * 60 * 1000;
