// @vitest-environment happy-dom
// The autosave hook with a real (fake-clock) timer and a save request the test answers: the text
// sent is the latest, a save starts only after the pause, an edit during a save is sent after it,
// a failure keeps the text, and the browser asks before the page is left with an edit unsaved.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api.ts';
import { useAutosave } from './useAutosave.ts';

const PAUSE = 400;

/** A save request the test answers when it chooses. */
function requests() {
  const sent: { data: unknown; answer: (edited: boolean) => void; fail: (error: unknown) => void }[] = [];
  const send = vi.fn(
    (data: unknown) =>
      new Promise<{ edited: boolean }>((resolve, reject) => {
        sent.push({ data, answer: (edited) => resolve({ edited }), fail: reject });
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
afterEach(() => {
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
});
