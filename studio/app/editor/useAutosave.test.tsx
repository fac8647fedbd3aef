// @vitest-environment happy-dom
// The autosave hook with a real (fake-clock) timer and a save request the test answers: the text
// sent is the latest, a save starts only after the pause, an edit during a save is sent after it,
// a failure keeps the text, and the browser asks before the page is left with an edit unsaved.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api.ts';
import { pendingSaves } from './pending-saves.ts';
import { useAutosave } from './useAutosave.ts';

const PAUSE = 400;

type SentSave = { data: unknown; answer: (edited: boolean) => void; fail: (error: unknown) => void };
/** Every save request any test made, answered after each test so none stays on its way into the next. */
const everySent: SentSave[] = [];

/** A save request the test answers when it chooses. */
function requests() {
  const sent: SentSave[] = [];
  const send = vi.fn(
    (data: unknown) =>
      new Promise<{ edited: boolean }>((resolve, reject) => {
        const request = { data, answer: (edited: boolean) => resolve({ edited }), fail: reject };
        sent.push(request);
        everySent.push(request);
      }),
  );
  return { send, sent };
}

/** Lets the request's answer reach the hook. */
const settle = () => act(async () => {});

/** Whether leaving the page now would make the browser ask first. */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  // Edits still waiting are sent and every save answered: the list of saves on their way is shared.
  for (let round = 0; round < 3; round += 1) {
    act(() => vi.runOnlyPendingTimers());
    for (const request of everySent.splice(0)) request.answer(true);
    await settle();
  }
  cleanup();
  vi.useRealTimers();
});

function start(edited = false) {
  const { send, sent } = requests();
  const hook = renderHook(() => useAutosave(send, PAUSE));
  act(() => hook.result.current.opened({ title: 'About' }, edited));
  const type = (title: string) => act(() => hook.result.current.edit((data) => ({ ...(data as object), title })));
  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  return { hook, send, sent, type, wait, status: () => hook.result.current.status };
}

describe('useAutosave', () => {
  it('shows the opened data and what the file is', () => {
    const { hook, status } = start(true);
    expect(hook.result.current.data).toEqual({ title: 'About' });
    expect(status()).toEqual({ kind: 'saved' });
  });

  it('starts a save only once typing has paused, with the text as it is then', async () => {
    const { send, sent, type, wait, status, hook } = start();
    type('About u');
    expect(status()).toEqual({ kind: 'unsaved' });
    expect(hook.result.current.data).toEqual({ title: 'About u' });
    wait(PAUSE - 100);
    type('About us');
    wait(PAUSE - 1);
    expect(send).not.toHaveBeenCalled();
    wait(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(sent[0]!.data).toEqual({ title: 'About us' });
    expect(status()).toEqual({ kind: 'saving' });
    sent[0]!.answer(true);
    await settle();
    expect(status()).toEqual({ kind: 'saved' });
  });

  it('queues an edit made during a save and sends it when the first save answers', async () => {
    const { send, sent, type, wait, status } = start();
    type('One');
    wait(PAUSE);
    type('Two');
    wait(PAUSE);
    // One request at a time: the second waits for the first.
    expect(send).toHaveBeenCalledTimes(1);
    expect(status()).toEqual({ kind: 'unsaved' });
    sent[0]!.answer(true);
    await settle();
    expect(send).toHaveBeenCalledTimes(2);
    expect(sent[1]!.data).toEqual({ title: 'Two' });
    expect(status()).toEqual({ kind: 'saving' });
    sent[1]!.answer(true);
    await settle();
    expect(status()).toEqual({ kind: 'saved' });
  });

  it('keeps the text after a failed save, says why, and sends it again with the next edit', async () => {
    const { send, sent, type, wait, status, hook } = start();
    type('Kept');
    wait(PAUSE);
    sent[0]!.fail(new ApiError(0, 'The studio server cannot be reached.', undefined, null));
    await settle();
    expect(status()).toEqual({ kind: 'failed', message: 'The studio server cannot be reached.' });
    expect(hook.result.current.data).toEqual({ title: 'Kept' });
    expect(leavingAsks()).toBe(true);
    expect(hook.result.current.latest()).toEqual({ title: 'Kept' });
    // No retry on its own...
    wait(PAUSE * 5);
    expect(send).toHaveBeenCalledTimes(1);
    // ...the next edit saves everything.
    type('Kept, and more');
    wait(PAUSE);
    expect(send).toHaveBeenCalledTimes(2);
    expect(sent[1]!.data).toEqual({ title: 'Kept, and more' });
  });

  it('reports a conflict the server answers with 409', async () => {
    const { sent, type, wait, status, hook } = start();
    type('Mine');
    wait(PAUSE);
    sent[0]!.fail(new ApiError(409, 'This file changed on disk since you opened it.', 'disk-changed', {}));
    await settle();
    expect(status()).toEqual({ kind: 'conflict', reason: 'disk-changed', message: 'This file changed on disk since you opened it.' });
    expect(hook.result.current.latest()).toEqual({ title: 'Mine' });
  });

  it('has the browser ask before leaving while an edit waits to be saved, and not once it is saved', async () => {
    const { sent, type, wait } = start();
    expect(leavingAsks()).toBe(false);
    type('Unsaved');
    expect(leavingAsks()).toBe(true);
    wait(PAUSE);
    // Leaving would cancel the request under way.
    expect(leavingAsks()).toBe(true);
    sent[0]!.answer(true);
    await settle();
    expect(leavingAsks()).toBe(false);
  });

  it('is known as a save on its way from the keystroke until the answer, and is sent at once when the review screen asks', async () => {
    const { sent, type, hook } = start();
    expect(pendingSaves.size).toBe(0);
    type('About us');
    expect(pendingSaves.size).toBe(1);
    // The review screen opens before typing pauses: the edit goes now, and the editor may be closed.
    act(() => pendingSaves.flushAll());
    expect(sent.map((request) => request.data)).toEqual([{ title: 'About us' }]);
    hook.unmount();
    expect(pendingSaves.size).toBe(1);
    const settledNow = vi.fn();
    void pendingSaves.settled().then(settledNow);
    sent[0]!.answer(true);
    await settle();
    expect(settledNow).toHaveBeenCalled();
    expect(pendingSaves.size).toBe(0);
  });
});
