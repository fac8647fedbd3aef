// The form engine's state and its transitions, written with immer so each transition reads
// as the change it makes. Pure: time comes in with the action.
import { produce } from 'immer';
import type { PendingRetry } from './submit-flow.ts';
import { CALLBACK_FIELDS } from '../lead/callback-consent.ts';

export type FormStatus = 'idle' | 'submitting';

// Plain (mutable-looking) fields so immer recipes read naturally; immer freezes every produced state.
export interface LeadFormState<N extends string> {
  values: Record<N, string>;
  errors: Partial<Record<N, string>>;
  status: FormStatus;
  /** The honeypot's value: people never see the field, so anything here came from a bot. */
  website: string;
  /** Whether "call me back now" is ticked: unticked until the visitor ticks it. */
  callback: boolean;
  /** When the form was (last) shown, in ms since the epoch; unset until the browser has shown it. */
  shownAtMs: number | undefined;
  /** The last failed submission, resent with its Idempotency-Key if the values are unchanged. */
  retry: PendingRetry | undefined;
  /** Counts rejected submissions, so focus moves to the first invalid field every time. */
  rejections: number;
}

export type LeadFormAction<N extends string> =
  | { readonly type: 'shown'; readonly atMs: number }
  | { readonly type: 'edited'; readonly field: N; readonly value: string }
  | { readonly type: 'honeypotEdited'; readonly value: string }
  | { readonly type: 'callbackToggled'; readonly ticked: boolean }
  | { readonly type: 'pressed' }
  | { readonly type: 'rejected'; readonly errors: Partial<Record<N, string>> }
  | { readonly type: 'refused' }
  | { readonly type: 'submitted' }
  | { readonly type: 'succeeded'; readonly atMs: number }
  | { readonly type: 'failed'; readonly retry: PendingRetry }
  | { readonly type: 'reset'; readonly atMs: number };

export function createInitialState<N extends string>(emptyValues: Readonly<Record<N, string>>): LeadFormState<N> {
  return {
    values: emptyValues,
    errors: {},
    status: 'idle',
    website: '',
    callback: false,
    shownAtMs: undefined,
    retry: undefined,
    rejections: 0,
  };
}

/** A reducer for one form; `emptyValues` is what a successful submission or a reset leaves behind. */
export function createLeadFormReducer<N extends string>(emptyValues: Readonly<Record<N, string>>) {
  const clear = (draft: LeadFormState<N>, atMs: number) => {
    draft.values = { ...emptyValues };
    draft.errors = {};
    draft.website = '';
    draft.callback = false;
    draft.retry = undefined;
    draft.status = 'idle';
    // The emptied form is shown afresh: the next submission's time-on-form starts now.
    draft.shownAtMs = atMs;
  };

  return (state: LeadFormState<N>, action: LeadFormAction<N>): LeadFormState<N> =>
    produce(state, (draft: LeadFormState<N>) => {
      switch (action.type) {
        case 'shown':
          draft.shownAtMs ??= action.atMs;
          return;
        case 'edited':
          draft.values[action.field] = action.value;
          // Editing a field clears that field's error.
          delete draft.errors[action.field];
          return;
        case 'honeypotEdited':
          draft.website = action.value;
          return;
        case 'callbackToggled':
          draft.callback = action.ticked;
          // A call-back wording that changed since the page opened is reported on the box.
          delete draft.errors[CALLBACK_FIELDS.version as N];
          return;
        case 'pressed':
          // The send button was pressed: the form shows it is at work while its values are checked.
          draft.status = 'submitting';
          return;
        case 'refused':
          // Nothing was checked or sent (too many sends in a row): the form is as it was.
          draft.status = 'idle';
          return;
        case 'rejected':
          draft.errors = { ...action.errors };
          draft.status = 'idle';
          draft.rejections += 1;
          return;
        case 'submitted':
          draft.errors = {};
          draft.status = 'submitting';
          return;
        case 'succeeded':
          // Success clears the fields.
          clear(draft, action.atMs);
          return;
        case 'failed':
          // Failure keeps what was typed.
          draft.status = 'idle';
          draft.retry = action.retry;
          return;
        case 'reset':
          clear(draft, action.atMs);
          return;
      }
    });
}
