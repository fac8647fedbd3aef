import { describe, expect, it } from 'vitest';
import type { Availability, UntouchedLead } from '../store/sales/sales-store.ts';
import { dueStep, parseEscalateAfter, reassignTarget, stepAction } from './escalation.ts';
import type { WeeklyHours } from './working-time.ts';

const NEW_YORK: WeeklyHours = {
  timeZone: 'America/New_York',
  windows: [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1080 })),
};
const at = (iso: string) => Date.parse(iso);

describe('parseEscalateAfter', () => {
  it('is 5, 15 and 60 minutes when unset or empty', () => {
    expect(parseEscalateAfter(undefined)).toEqual([5, 15, 60]);
    expect(parseEscalateAfter('  ')).toEqual([5, 15, 60]);
  });

  it('reads three increasing whole numbers of minutes', () => {
    expect(parseEscalateAfter('2, 10 ,30')).toEqual([2, 10, 30]);
  });

  it('refuses anything else with a sentence naming the setting', () => {
    for (const text of ['5,15', '5,15,60,120', '5,5,60', '15,5,60', '0,5,60', '5,15,6O', '5.5,15,60', '-5,15,60']) {
      expect(() => parseEscalateAfter(text), text).toThrow(
        `ESCALATE_AFTER_MINUTES must be three whole numbers of minutes, each larger than the one before, separated by commas, such as 5,15,60 (it is "${text}").`,
      );
    }
  });
});

describe('dueStep', () => {
  // The clock started on Friday 5 June 2026 at 17:50 in New York (21:50 UTC): ten working minutes
  // remain that day, the rest of each threshold runs from Monday 9:00 (13:00 UTC).
  const lead = (escalationStep: number): UntouchedLead => ({
    leadId: '7d0c3f4e-3b1a-4c8e-9f57-0c6a1f1d2e3b',
    receivedAt: at('2026-06-05T21:50:00Z'),
    ownerId: '1',
    clockStartsAt: at('2026-06-05T21:50:00Z'),
    escalationStep,
  });
  const steps = [5, 15, 60];

  it('is not due before the first threshold, and due from it', () => {
    expect(dueStep(lead(0), NEW_YORK, steps, at('2026-06-05T21:54:59Z'))).toBeUndefined();
    expect(dueStep(lead(0), NEW_YORK, steps, at('2026-06-05T21:55:00Z'))).toEqual({ step: 1, dueAt: at('2026-06-05T21:55:00Z') });
  });

  it('counts only business time: 15 minutes are reached on Monday 9:05, not on Friday evening', () => {
    expect(dueStep(lead(1), NEW_YORK, steps, at('2026-06-06T12:00:00Z'))).toBeUndefined();
    expect(dueStep(lead(1), NEW_YORK, steps, at('2026-06-08T13:05:00Z'))).toEqual({ step: 2, dueAt: at('2026-06-08T13:05:00Z') });
    expect(dueStep(lead(2), NEW_YORK, steps, at('2026-06-08T13:49:59Z'))).toBeUndefined();
    expect(dueStep(lead(2), NEW_YORK, steps, at('2026-06-08T14:00:00Z'))).toEqual({ step: 3, dueAt: at('2026-06-08T13:50:00Z') });
  });

  it('takes one step at a time, in order, after a long pause', () => {
    expect(dueStep(lead(0), NEW_YORK, steps, at('2026-06-09T00:00:00Z'))).toEqual({ step: 1, dueAt: at('2026-06-05T21:55:00Z') });
  });

  it('is done after the third step', () => {
    expect(dueStep(lead(3), NEW_YORK, steps, at('2026-07-01T00:00:00Z'))).toBeUndefined();
  });
});

describe('stepAction', () => {
  it('tells the owner first, or the team when there is no owner, then the team, then reassigns', () => {
    expect(stepAction(1, 4)).toBe('tell-owner');
    expect(stepAction(1, undefined)).toBe('tell-team');
    expect(stepAction(2, 4)).toBe('tell-team');
    expect(stepAction(3, 4)).toBe('reassign');
    expect(stepAction(3, undefined)).toBe('reassign');
  });
});

describe('reassignTarget', () => {
  const person = (accountId: string, lastAssignedAt: number | undefined, away = false): Availability => ({
    accountId,
    timeZone: 'UTC',
    windows: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 })),
    away,
    lastAssignedAt,
    defaultHours: false,
  });

  it('is the available person waiting longest for a lead, never the owner who let it wait', () => {
    expect(reassignTarget('1', [person('1', undefined), person('2', 900), person('3', 100)], 0)).toBe('3');
    expect(reassignTarget('3', [person('1', undefined, true), person('2', 900), person('3', 100)], 0)).toBe('2');
  });

  it('is nobody when nobody else is available', () => {
    expect(reassignTarget('1', [person('1', undefined), person('2', 5, true)], 0)).toBeUndefined();
  });
});
