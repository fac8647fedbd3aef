// The autosave as a hook: it holds the file's data as the person edits it, runs the state machine
// in autosave.ts with a real timer and the save request it is given, and has the browser ask before
// the page is left while an edit is not saved yet: from the keystroke until the save is through
// (a moment after typing stops), and after a save that did not work. Nothing is saved on leaving.
// Opening another file in the studio does not cancel a save still waiting for typing to pause: the
// last edit reaches the server all the same. Every edit on its way is known to pending-saves.ts, so
// the review screen can send it at once and wait for it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  failureEvent,
  INITIAL_AUTOSAVE,
  SAVE_DELAY_MS,
  transition,
  warnsOnLeave,
  type AutosaveEvent,
  type SaveStatus,
} from './autosave.ts';
import { pendingSaves, type PendingSave } from './pending-saves.ts';

/** Saves the data; answers whether the file now differs from the published one. Rejects with an ApiError. */
export type SendDraft = (data: unknown) => Promise<{ edited: boolean }>;

export type Autosave = {
  /** The data as the form shows it. */
  data: unknown;
  status: SaveStatus;
  /** The data as last edited, for handlers that run between renders. */
  latest(): unknown;
  /** The file was opened (or opened again) with `data`; `edited`: it already has a saved draft. */
  opened(data: unknown, edited: boolean): void;
  /** An edit: the data becomes `recipe(data)`, saved once typing pauses. */
  edit(recipe: (data: unknown) => unknown): void;
};

export function useAutosave(send: SendDraft, delayMs = SAVE_DELAY_MS): Autosave {
  const [data, setData] = useState<unknown>(null);
  const [status, setStatus] = useState<SaveStatus>(INITIAL_AUTOSAVE.status);
  const machine = useRef(INITIAL_AUTOSAVE);
  const latest = useRef<unknown>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const sendDraft = useRef(send);
  useEffect(() => {
    sendDraft.current = send;
  }, [send]);

  // This editor's place among the saves the review screen waits for (it outlives the editor: a save
  // still waiting when the file is closed is sent all the same).
  const pending = useRef<PendingSave>({ flush: () => {} });

  const dispatch = useCallback(
    function step(event: AutosaveEvent) {
      const { state, command } = transition(machine.current, event);
      machine.current = state;
      setStatus(state.status);
      pendingSaves.track(pending.current, state.status.kind === 'unsaved' || state.status.kind === 'saving');
      if (command === 'wait') {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => step({ type: 'paused' }), delayMs);
      } else if (command === 'save') {
        sendDraft.current(latest.current).then(
          (answer) => step({ type: 'saved', edited: answer.edited }),
          (error: unknown) => step(failureEvent(error)),
        );
      }
    },
    [delayMs],
  );
  useEffect(() => {
    pending.current.flush = () => {
      clearTimeout(timer.current);
      dispatch({ type: 'paused' });
    };
  }, [dispatch]);

  const opened = useCallback(
    (next: unknown, edited: boolean) => {
      latest.current = next;
      setData(next);
      dispatch({ type: 'opened', edited });
    },
    [dispatch],
  );

  const edit = useCallback(
    (recipe: (current: unknown) => unknown) => {
      const next = recipe(latest.current);
      latest.current = next;
      setData(next);
      dispatch({ type: 'edited' });
    },
    [dispatch],
  );

  const current = useCallback(() => latest.current, []);

  // The browser asks whether to leave, in its own words; it does not save anything on the way out.
  const warn = warnsOnLeave(status);
  useEffect(() => {
    if (!warn) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [warn]);

  return useMemo(() => ({ data, status, latest: current, opened, edit }), [data, status, current, opened, edit]);
}
