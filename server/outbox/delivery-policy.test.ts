import { describe, expect, it } from 'vitest';
import type { CrmAnswer } from './delivery-policy.ts';
import { applyJitter, decideDelivery, MAX_RETRY_AFTER_MS, parseRetryAfterMs } from './delivery-policy.ts';

const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);
const DELAYS = [5_000, 300_000, 1_800_000];
const MIDDLE = () => 0.5; // no jitter: the scheduled wait exactly

const answered = (status: number, body = '', retryAfter?: string): CrmAnswer => ({
  kind: 'answered',
  status,
  body,
  retryAfter,
  durationMs: 20,
});

describe('decideDelivery', () => {
  it.each([
    [200, '{"ok":true}', 'delivered'],
    [201, '', 'delivered'],
    [204, '', 'delivered'],
    [200, 'Success: test request received', 'delivered-test'],
    [200, '{"message":"Test Request received"}', 'delivered-test'],
  ] as const)('a %i answering %j is %s', (status, body, nextState) => {
    expect(decideDelivery(answered(status, body), { attemptsBefore: 0, retryDelaysMs: DELAYS, now: NOW, random: MIDDLE })).toEqual({
      nextState,
      nextAttemptAt: undefined,
      reason: undefined,
    });
  });

  it('stops at 410 Gone without retrying', () => {
    expect(decideDelivery(answered(410), { attemptsBefore: 0, retryDelaysMs: DELAYS, now: NOW, random: MIDDLE })).toMatchObject({
      nextState: 'failed',
      reason: 'HTTP 410',
    });
  });

  it.each([
    [answered(500), 0, NOW + 5_000],
    [answered(400), 1, NOW + 300_000],
    [answered(302), 2, NOW + 1_800_000],
    [{ kind: 'unanswered', error: 'timeout after 10000 ms', durationMs: 10_000 } as const, 0, NOW + 5_000],
  ])('retries %j after attempt %i on the schedule', (answer, attemptsBefore, nextAttemptAt) => {
    expect(decideDelivery(answer, { attemptsBefore, retryDelaysMs: DELAYS, now: NOW, random: MIDDLE })).toMatchObject({
      nextState: 'pending',
      nextAttemptAt,
    });
  });

  it('fails once every scheduled wait is used up', () => {
    expect(decideDelivery(answered(500), { attemptsBefore: 3, retryDelaysMs: DELAYS, now: NOW, random: MIDDLE })).toEqual({
      nextState: 'failed',
      nextAttemptAt: undefined,
      reason: 'HTTP 500',
    });
    expect(decideDelivery(answered(500), { attemptsBefore: 0, retryDelaysMs: [], now: NOW, random: MIDDLE }).nextState).toBe('failed');
  });

  it.each([429, 503])('waits at least the Retry-After of a %i', (status) => {
    const decide = (retryAfter: string) =>
      decideDelivery(answered(status, '', retryAfter), { attemptsBefore: 0, retryDelaysMs: DELAYS, now: NOW, random: MIDDLE });
    expect(decide('120').nextAttemptAt).toBe(NOW + 120_000);
    expect(decide('1').nextAttemptAt).toBe(NOW + 5_000);
    expect(decide(new Date(NOW + 600_000).toUTCString()).nextAttemptAt).toBe(NOW + 600_000);
    expect(decide('99999999').nextAttemptAt).toBe(NOW + MAX_RETRY_AFTER_MS);
    expect(decide('soon').nextAttemptAt).toBe(NOW + 5_000);
  });

  it('ignores Retry-After on other statuses', () => {
    expect(
      decideDelivery(answered(500, '', '600'), { attemptsBefore: 0, retryDelaysMs: DELAYS, now: NOW, random: MIDDLE }).nextAttemptAt,
    ).toBe(NOW + 5_000);
  });
});

describe('applyJitter', () => {
  it.each([
    [0, 4_000],
    [0.5, 5_000],
    [0.999_999, 6_000],
  ])('spreads a 5 s wait ±20%% (random %d → %d ms)', (random, expected) => {
    expect(applyJitter(5_000, () => random)).toBeCloseTo(expected, 0);
  });
});

describe('parseRetryAfterMs', () => {
  it.each([
    ['3', 3_000],
    [' 0 ', 0],
    ['', undefined],
    [undefined, undefined],
    ['-5', undefined],
    ['1.5', undefined],
    [new Date(NOW - 10_000).toUTCString(), 0],
  ])('reads %j as %j ms', (value, expected) => {
    expect(parseRetryAfterMs(value, NOW)).toBe(expected);
  });
});
