// The autosave's state machine, step by step: typing waits for a pause and then saves; an edit during
// a save queues exactly one more; a failure or a conflict says so and keeps the edit unsaved; what
// leaving the page would lose.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api.ts';
import { failureEvent, INITIAL_AUTOSAVE, transition, warnsOnLeave, type AutosaveCommand, type AutosaveEvent } from './autosave.ts';

/** Runs the events from a freshly opened file; the status after each and the commands given. */
function run(...events: AutosaveEvent[]) {
  let state = INITIAL_AUTOSAVE;
  const statuses: string[] = [];
  const commands: (AutosaveCommand | '-')[] = [];
  for (const event of events) {
    const step = transition(state, event);
    state = step.state;
    statuses.push(step.state.status.kind);
    commands.push(step.command ?? '-');
  }
  return { state, statuses, commands };
}

const opened: AutosaveEvent = { type: 'opened', edited: false };
const edited: AutosaveEvent = { type: 'edited' };
const paused: AutosaveEvent = { type: 'paused' };
const saved: AutosaveEvent = { type: 'saved', edited: true };

describe('the autosave', () => {
  it('starts from what the file is: a saved draft, or nothing unpublished', () => {
    expect(run({ type: 'opened', edited: true }).statuses).toEqual(['saved']);
    expect(run({ type: 'opened', edited: false }).statuses).toEqual(['clean']);
  });

  it('waits while the person types (each keystroke restarts the wait), then saves once', () => {
    const { statuses, commands } = run(opened, edited, edited, edited, paused, saved);
    expect(statuses).toEqual(['clean', 'unsaved', 'unsaved', 'unsaved', 'saving', 'saved']);
    expect(commands).toEqual(['-', 'wait', 'wait', 'wait', 'save', '-']);
  });

  it('says there is nothing unpublished when the save brought the file back to the published text', () => {
    expect(run(opened, edited, paused, { type: 'saved', edited: false }).state.status).toEqual({ kind: 'clean' });
  });

  it('queues an edit made during a save: one request at a time, the next sent when the first answers', () => {
    const { statuses, commands } = run(opened, edited, paused, edited, paused, saved, saved);
    expect(commands).toEqual(['-', 'wait', 'save', 'wait', '-', 'save', '-']);
    // "Editing…" while the newer edit waits, "Saving draft…" as soon as its turn comes.
    expect(statuses).toEqual(['clean', 'unsaved', 'saving', 'unsaved', 'unsaved', 'saving', 'saved']);
  });

  it('does not say "saved" when the person typed after the request took the text', () => {
    const { state, commands } = run(opened, edited, paused, edited, saved);
    expect(state.status).toEqual({ kind: 'unsaved' });
    expect(commands.at(-1)).toBe('-'); // the pause still to come saves it
    expect(transition(state, paused).command).toBe('save');
  });

  it('sends a queued save even when the save before it failed', () => {
    const { statuses, commands } = run(opened, edited, paused, edited, paused, { type: 'failed', message: 'Disk full.' });
    expect(statuses.at(-1)).toBe('saving');
    expect(commands.at(-1)).toBe('save');
  });

  it('keeps a failed save’s edit unsaved and says why; the next edit saves it again', () => {
    const failed = run(opened, edited, paused, { type: 'failed', message: 'The studio server cannot be reached.' });
    expect(failed.state.status).toEqual({ kind: 'failed', message: 'The studio server cannot be reached.' });
    expect(failed.commands.at(-1)).toBe('-'); // no retry loop against a server that is down
    const again = [edited, paused].reduce((state, event) => transition(state, event).state, failed.state);
    expect(again.status).toEqual({ kind: 'saving' });
  });

  it('reports a conflict with its reason and message, and does not save over the other version by itself', () => {
    const { state, commands } = run(opened, edited, paused, {
      type: 'conflict',
      reason: 'disk-changed',
      message: 'This file changed on disk since you opened it.',
    });
    expect(state.status).toEqual({ kind: 'conflict', reason: 'disk-changed', message: 'This file changed on disk since you opened it.' });
    expect(commands.at(-1)).toBe('-');
    expect(state.inFlight).toBe(false);
  });

  it('saves nothing when a wait left over from before the file was opened again runs out', () => {
    const { state, commands } = run(opened, edited, { type: 'opened', edited: true }, paused);
    expect(state.status).toEqual({ kind: 'saved' });
    expect(commands.at(-1)).toBe('-');
  });
});

describe('a failed save, as the machine hears of it', () => {
  it('is a conflict when the server answers 409, with the server’s reason and words', () => {
    expect(failureEvent(new ApiError(409, 'Saved by Maria in another tab.', 'draft-changed', {}))).toEqual({
      type: 'conflict',
      reason: 'draft-changed',
      message: 'Saved by Maria in another tab.',
    });
  });

  it('is a failure with the server’s words for any other refusal, and plain words for anything else', () => {
    expect(failureEvent(new ApiError(0, 'The studio server cannot be reached.', undefined, null))).toEqual({
      type: 'failed',
      message: 'The studio server cannot be reached.',
    });
    expect(failureEvent(new TypeError('boom'))).toEqual({ type: 'failed', message: 'The draft could not be saved.' });
  });
});

describe('leaving the page', () => {
  it('asks first while an edit waits to be saved or is being sent, not when everything is saved', () => {
    expect(warnsOnLeave({ kind: 'unsaved' })).toBe(true);
    expect(warnsOnLeave({ kind: 'saving' })).toBe(true);
    expect(warnsOnLeave({ kind: 'saved' })).toBe(false);
    expect(warnsOnLeave({ kind: 'clean' })).toBe(false);
  });

  it('asks first when the server did not take the edit: a failed save or a conflict', () => {
    expect(warnsOnLeave({ kind: 'failed', message: 'The studio server cannot be reached.' })).toBe(true);
    expect(warnsOnLeave({ kind: 'conflict', reason: 'disk-changed', message: 'It changed on disk.' })).toBe(true);
  });
});
