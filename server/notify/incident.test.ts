import { describe, expect, it } from 'vitest';
import type { DeliveryHealth } from '../store/notifications/notification-store.ts';
import { judgeIncident } from './incident.ts';

// Incidents on a fake clock: minutes from T0, the alert after 15 minutes of failures.

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0);
const MINUTE = 60_000;
const ALERT_AFTER_MS = 15 * MINUTE;
const at = (minutes: number) => T0 + minutes * MINUTE;

function health(overrides: Partial<DeliveryHealth> = {}): DeliveryHealth {
  return { lastSuccessAt: undefined, firstFailureAt: undefined, lastFailureAt: undefined, lastFailure: undefined, ...overrides };
}

describe('judgeIncident', () => {
  it.each([
    ['no delivery yet', health(), 60],
    ['only successes', health({ lastSuccessAt: at(1) }), 60],
    ['failing for 14 minutes', health({ firstFailureAt: at(0), lastFailureAt: at(14), lastFailure: 'HTTP 503' }), 14],
    ['failing 20 minutes ago, but a success since', health({ lastSuccessAt: at(21), firstFailureAt: undefined }), 60],
  ])('raises nothing for %s', (_name, record, minutesNow) => {
    expect(judgeIncident({ health: record, open: undefined, now: at(minutesNow), alertAfterMs: ALERT_AFTER_MS })).toEqual({ kind: 'none' });
  });

  it('opens an incident once deliveries have failed for ALERT_AFTER_MINUTES without a success, from the first failure', () => {
    const record = health({ lastSuccessAt: at(-5), firstFailureAt: at(0), lastFailureAt: at(10), lastFailure: 'HTTP 503' });
    expect(judgeIncident({ health: record, open: undefined, now: at(15), alertAfterMs: ALERT_AFTER_MS })).toEqual({
      kind: 'open',
      since: at(0),
      lastError: 'HTTP 503',
    });
  });

  it('counts a quiet spell after one failure: no retry due yet still means no lead got through', () => {
    const record = health({ firstFailureAt: at(0), lastFailureAt: at(0), lastFailure: 'timeout after 10000 ms' });
    expect(judgeIncident({ health: record, open: undefined, now: at(16), alertAfterMs: ALERT_AFTER_MS }).kind).toBe('open');
  });

  it('keeps an open incident open, with no second alert, while deliveries go on failing', () => {
    const record = health({ firstFailureAt: at(0), lastFailureAt: at(90), lastFailure: 'HTTP 500' });
    for (const minutes of [16, 30, 120, 600]) {
      expect(judgeIncident({ health: record, open: { since: at(0) }, now: at(minutes), alertAfterMs: ALERT_AFTER_MS })).toEqual({
        kind: 'none',
      });
    }
  });

  it('closes the open incident at the first success after it started', () => {
    const record = health({ lastSuccessAt: at(42), firstFailureAt: undefined, lastFailureAt: at(40), lastFailure: 'HTTP 500' });
    expect(judgeIncident({ health: record, open: { since: at(0) }, now: at(43), alertAfterMs: ALERT_AFTER_MS })).toEqual({
      kind: 'recover',
      since: at(0),
      recoveredAt: at(42),
    });
  });

  it('opens a new incident only for failures after the recovery, and only after the full wait again', () => {
    const afterRecovery = health({ lastSuccessAt: at(42), firstFailureAt: at(50), lastFailureAt: at(60), lastFailure: 'HTTP 502' });
    expect(judgeIncident({ health: afterRecovery, open: undefined, now: at(64), alertAfterMs: ALERT_AFTER_MS }).kind).toBe('none');
    expect(judgeIncident({ health: afterRecovery, open: undefined, now: at(65), alertAfterMs: ALERT_AFTER_MS })).toMatchObject({
      kind: 'open',
      since: at(50),
    });
  });
});
