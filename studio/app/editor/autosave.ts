// The autosave's state machine, pure: for each thing that happens (the file is opened, the person
// edits, typing pauses, the server answers a save) the next state, which is what the save status
// says, and what the editor must do next (wait for a pause, or send the text now). The hook
// useAutosave.ts runs it with a real timer and real requests; the tests step through it.
import { ApiError } from '../api.ts';

/** What the person is told about their draft. */
export type SaveStatus =
  | { kind: 'clean' | 'saved' | 'saving' | 'unsaved' }
  | { kind: 'failed'; message: string }
  | { kind: 'conflict'; reason: string; message: string };

export type AutosaveState = {
  status: SaveStatus;
  /** A save request is under way. */
  inFlight: boolean;
  /** The text changed since the last save request took it (or since the file was opened). */
  dirty: boolean;
  /** Typing paused while a request was under way: another save follows as soon as it answers. */
  queued: boolean;
};

export type AutosaveEvent =
  /** The file was opened (or opened again); `edited`: it already has a saved draft. */
  | { type: 'opened'; edited: boolean }
  | { type: 'edited' }
  /** No edit for SAVE_DELAY_MS. */
  | { type: 'paused' }
  | { type: 'saved'; edited: boolean }
  | { type: 'failed'; message: string }
  /** The server refused the save: the file changed on disk, or another tab saved a newer draft. */
  | { type: 'conflict'; reason: string; message: string };

/** `wait`: (re)start the wait for typing to pause. `save`: send the text as it is now. */
export type AutosaveCommand = 'wait' | 'save';

export type Step = { state: AutosaveState; command?: AutosaveCommand };

/** Wait after the last keystroke before the draft is saved. */
export const SAVE_DELAY_MS = 400;

const CLEAN: SaveStatus = { kind: 'clean' };
const SAVED: SaveStatus = { kind: 'saved' };
const SAVING: SaveStatus = { kind: 'saving' };
const UNSAVED: SaveStatus = { kind: 'unsaved' };

export const INITIAL_AUTOSAVE: AutosaveState = { status: CLEAN, inFlight: false, dirty: false, queued: false };

export function transition(state: AutosaveState, event: AutosaveEvent): Step {
  switch (event.type) {
    case 'opened':
      // A request still under way answers later; what it saved is no longer what the form shows.
      return { state: { ...state, status: event.edited ? SAVED : CLEAN, dirty: false, queued: false } };
    case 'edited':
      return { state: { ...state, status: UNSAVED, dirty: true }, command: 'wait' };
    case 'paused':
      if (!state.dirty) return { state }; // nothing new since the last request (or the file was reopened)
      if (state.inFlight) return { state: { ...state, queued: true } };
      return startSave();
    case 'saved':
    case 'failed':
    case 'conflict': {
      const answered = { ...state, inFlight: false };
      if (answered.queued) return startSave();
      return { state: { ...answered, status: statusAfter(event, answered.dirty) } };
    }
  }
}

/** The text the request takes is, from now on, not dirty. */
function startSave(): Step {
  return { state: { status: SAVING, inFlight: true, dirty: false, queued: false }, command: 'save' };
}

function statusAfter(event: Extract<AutosaveEvent, { type: 'saved' | 'failed' | 'conflict' }>, editedSince: boolean): SaveStatus {
  if (event.type === 'failed') return { kind: 'failed', message: event.message };
  if (event.type === 'conflict') return { kind: 'conflict', reason: event.reason, message: event.message };
  // Saved, but the person typed meanwhile: that edit is saved once typing pauses.
  if (editedSince) return UNSAVED;
  return event.edited ? SAVED : CLEAN;
}

/** A save that did not work, as the machine's event: the server's 409 is a conflict, anything else a failure. */
export function failureEvent(error: unknown): AutosaveEvent {
  if (error instanceof ApiError && error.status === 409) return { type: 'conflict', reason: error.reason ?? '', message: error.message };
  return { type: 'failed', message: error instanceof ApiError ? error.message : 'The draft could not be saved.' };
}

/**
 * Leaving the page now would lose an edit, so the browser asks first: one waiting for typing to
 * pause, one being sent (leaving cancels the request), or one the server did not take (a failed
 * save, a conflict). Only a saved draft, or no change at all, leaves without a question.
 */
export function warnsOnLeave(status: SaveStatus): boolean {
  return status.kind !== 'saved' && status.kind !== 'clean';
}
