// Edits on their way to the server, from the keystroke until the save is answered, across every
// editor: one just closed keeps saving its last edit. The review screen waits for them before it asks
// the server what would be published (so it never says "no unpublished changes" while the last edit is
// still on its way), and reads the changes again whenever one lands.

export type PendingSave = {
  /** Sends the edit now instead of waiting for typing to pause. */
  flush(): void;
};

const pending = new Set<PendingSave>();
const listeners = new Set<() => void>();

export const pendingSaves = {
  /** `busy`: the save has an edit waiting or being sent. Listeners hear when that changes. */
  track(save: PendingSave, busy: boolean): void {
    if (pending.has(save) === busy) return;
    if (busy) pending.add(save);
    else pending.delete(save);
    for (const listener of [...listeners]) listener();
  },

  get size(): number {
    return pending.size;
  },

  /** Every waiting edit is sent at once. */
  flushAll(): void {
    for (const save of [...pending]) save.flush();
  },

  /** Resolves once no edit is waiting or being sent (a save that failed is no longer on its way). */
  settled(): Promise<void> {
    if (pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = pendingSaves.onChange(() => {
        if (pending.size > 0) return;
        stop();
        resolve();
      });
    });
  },

  /** Calls `listener` whenever a save starts or ends; returns how to stop. */
  onChange(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
