import { describe, expect, it } from 'vitest';
import { describeAuditDetail, describeRetry, noneSent, noneSkipped, tallySent, type AuditDetailKind } from './audit-detail.ts';

// The wordings both engines give an audit entry from a change's result: the sentences the console's
// audit screen has always shown, whichever engine wrote them.

describe('describeAuditDetail', () => {
  it('words each kind from its result', () => {
    expect(describeAuditDetail('erased-count', ['a', 'b'])).toBe('2 lead(s)');
    expect(describeAuditDetail('erased-count', [])).toBe('0 lead(s)');
    expect(describeAuditDetail('role-change', { account: { email: 'li@example.com', role: 'admin' }, previousRole: 'viewer' })).toBe(
      'li@example.com: viewer → admin',
    );
    expect(describeAuditDetail('purge-counts', { leads: 3, spam: 1 })).toBe('3 leads, 1 spam');
    expect(describeAuditDetail('released-leads', ['a', 'b'])).toBe('back to unassigned: 2 lead(s): a, b');
    expect(
      describeAuditDetail('every-failed-retry', [
        { id: 'a', from: 'failed', attempts: 5 },
        { id: 'b', from: 'failed', attempts: 1 },
      ]),
    ).toBe('every failed lead: sent 2 lead(s): a, b (2 failed)');
    expect(describeAuditDetail('every-failed-retry', [])).toBe('every failed lead: sent nothing');
  });

  it('refuses a kind it does not know (one sent from another thread is not checked by the compiler)', () => {
    expect(() => describeAuditDetail('lead-count' as AuditDetailKind, [] as never)).toThrow('Unknown audit detail kind: lead-count');
  });
});

describe('describeRetry', () => {
  it('counts what was sent by status, names at most 20 ids, and says what was skipped and why', () => {
    const moved = Array.from({ length: 21 }, (_, index) => ({
      id: `l${index}`,
      from: index === 0 ? ('pending' as const) : index === 1 ? ('held' as const) : ('failed' as const),
      attempts: index === 0 ? 2 : 0,
    }));
    const ids = moved.map((lead) => lead.id);
    expect(describeRetry(ids, tallySent(moved), { ...noneSkipped(), spam: 1, missing: 2 })).toBe(
      `sent 21 lead(s): ${ids.slice(0, 20).join(', ')}, … (19 failed, 1 held, 1 retrying); skipped 1 spam, 2 not found`,
    );
    expect(describeRetry([], noneSent(), { ...noneSkipped(), delivered: 1, sending: 1 })).toBe(
      'sent nothing; skipped 1 already delivered, 1 being sent right now',
    );
  });
});
