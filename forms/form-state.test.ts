import { describe, expect, it } from 'vitest';
import { createInitialState, createLeadFormReducer, type LeadFormAction, type LeadFormState } from './form-state.ts';
import type { PendingRetry } from './submit-flow.ts';

type Name = 'name' | 'email';
const EMPTY: Record<Name, string> = { name: '', email: '' };
const reduce = createLeadFormReducer<Name>(EMPTY);
const RETRY: PendingRetry = {
  fingerprint: '[{"name":"Ann"}]',
  submission: { endpoint: '/api/leads', body: '{}', idempotencyKey: 'key-1', markAsXhr: false },
};

function run(...actions: LeadFormAction<Name>[]): LeadFormState<Name> {
  return actions.reduce(reduce, createInitialState(EMPTY));
}

describe('lead form state', () => {
  it('starts empty, idle, with no time shown yet', () => {
    expect(createInitialState(EMPTY)).toEqual({
      values: { name: '', email: '' },
      errors: {},
      status: 'idle',
      website: '',
      callback: false,
      shownAtMs: undefined,
      retry: undefined,
      rejections: 0,
    });
  });

  it('records when the form was first shown, and keeps the first time', () => {
    expect(run({ type: 'shown', atMs: 1000 }, { type: 'shown', atMs: 2000 }).shownAtMs).toBe(1000);
  });

  it("editing a field sets its value and clears only that field's error", () => {
    const state = run(
      { type: 'rejected', errors: { name: 'Name must be at least 2 characters', email: 'Please enter a valid email' } },
      { type: 'edited', field: 'name', value: 'Ann' },
    );
    expect(state.values).toEqual({ name: 'Ann', email: '' });
    expect(state.errors).toEqual({ email: 'Please enter a valid email' });
  });

  it('a rejection shows the errors, stays idle and counts, so focus moves again on a repeat', () => {
    const errors = { name: 'Name must be at least 2 characters' };
    const once = run({ type: 'rejected', errors });
    const twice = reduce(once, { type: 'rejected', errors });
    expect(once).toMatchObject({ errors, status: 'idle', rejections: 1 });
    expect(twice.rejections).toBe(2);
  });

  it('submitting disables the form and clears old errors', () => {
    const state = run(
      { type: 'rejected', errors: { name: 'x' } },
      { type: 'edited', field: 'email', value: 'a@b.co' },
      { type: 'submitted' },
    );
    expect(state.status).toBe('submitting');
    expect(state.errors).toEqual({});
  });

  it('success clears the fields, the honeypot, the call-back tick and any retry, and restarts the time on form', () => {
    const state = run(
      { type: 'shown', atMs: 1000 },
      { type: 'edited', field: 'name', value: 'Ann' },
      { type: 'honeypotEdited', value: 'spam.example' },
      { type: 'callbackToggled', ticked: true },
      { type: 'submitted' },
      { type: 'failed', retry: RETRY },
      { type: 'submitted' },
      { type: 'succeeded', atMs: 5000 },
    );
    expect(state).toEqual({ ...createInitialState(EMPTY), shownAtMs: 5000 });
  });

  it('failure keeps what was typed, the call-back tick included, and remembers the submission for a retry', () => {
    const state = run(
      { type: 'edited', field: 'name', value: "Seán O'Brien" },
      { type: 'callbackToggled', ticked: true },
      { type: 'submitted' },
      { type: 'failed', retry: RETRY },
    );
    expect(state.values).toEqual({ name: "Seán O'Brien", email: '' });
    expect(state.callback).toBe(true);
    expect(state.status).toBe('idle');
    expect(state.retry).toBe(RETRY);
  });

  it('a press shows the form at work at once, keeping the errors on screen until the values are checked', () => {
    const pressed = run({ type: 'edited', field: 'name', value: 'A' }, { type: 'rejected', errors: { name: 'x' } }, { type: 'pressed' });
    expect(pressed.status).toBe('submitting');
    expect(pressed.errors).toEqual({ name: 'x' });
    expect(reduce(pressed, { type: 'submitted' }).errors).toEqual({});
  });

  it('a press refused (too many sends in a row) leaves the form as it was, ready for the next press', () => {
    const before = run({ type: 'edited', field: 'name', value: 'Ann' }, { type: 'failed', retry: RETRY });
    const refused = run(
      { type: 'edited', field: 'name', value: 'Ann' },
      { type: 'failed', retry: RETRY },
      { type: 'pressed' },
      { type: 'refused' },
    );
    expect(refused).toEqual(before);
  });

  it('reset empties the form like a success (ROI "Calculate Another ROI")', () => {
    const state = run(
      { type: 'edited', field: 'email', value: 'a@b.co' },
      { type: 'rejected', errors: { name: 'x' } },
      { type: 'reset', atMs: 9000 },
    );
    expect(state).toMatchObject({ values: EMPTY, errors: {}, status: 'idle', shownAtMs: 9000 });
  });

  it('never mutates the previous state (immer)', () => {
    const before = createInitialState(EMPTY);
    const after = reduce(before, { type: 'edited', field: 'name', value: 'Ann' });
    expect(before.values.name).toBe('');
    expect(after).not.toBe(before);
    expect(Object.isFrozen(after)).toBe(true);
  });
});
