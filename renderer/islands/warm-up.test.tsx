// @vitest-environment happy-dom
// The warm-up runs React's event system once off the page: nothing the page listens with (the beacon,
// the navigation, the field-speed code) sees its taps and keys, and it leaves nothing behind.
import * as ReactDomClient from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { warmUpEvents } from './warm-up.tsx';

describe('warmUpEvents', () => {
  it('runs a tap, a focus and a key through React where no page listener sees them, once per page load', async () => {
    const seen: string[] = [];
    const record = (event: Event) => seen.push(event.type);
    const types = ['mousedown', 'focusin', 'mouseup', 'click', 'keydown', 'keypress', 'input', 'keyup', 'focusout'];
    for (const type of types) {
      window.addEventListener(type, record, { capture: true });
      document.addEventListener(type, record, { capture: true });
    }
    const bodyBefore = document.body.innerHTML;
    const rendered: unknown[] = [];
    const reachedReact: string[] = [];
    const texts: string[] = [];
    const createRoot: typeof ReactDomClient.createRoot = (container, options) => {
      const root = ReactDomClient.createRoot(container, options);
      rendered.push(container);
      // Where React listens: the events went through its root, and its re-render showed the key.
      for (const type of types) container.addEventListener(type, (event) => reachedReact.push(event.type));
      new MutationObserver(() => texts.push(container.textContent ?? '')).observe(container, {
        subtree: true,
        childList: true,
        characterData: true,
      });
      return root;
    };
    const errors = vi.spyOn(console, 'error');

    await warmUpEvents({ ...ReactDomClient, createRoot });
    await warmUpEvents({ ...ReactDomClient, createRoot });

    expect(rendered).toHaveLength(1);
    const container = rendered[0] as HTMLElement;
    expect(container.isConnected).toBe(false);
    // The root was unmounted at the end: its field is gone.
    expect(container.querySelector('input')).toBeNull();
    expect(seen).toEqual([]);
    expect(reachedReact).toEqual([
      'mousedown',
      'focusin',
      'mouseup',
      'click',
      'keydown',
      'keypress',
      'input',
      'keyup',
      'click',
      'focusout',
    ]);
    expect(texts).toContain('7');
    expect(document.body.innerHTML).toBe(bodyBefore);
    expect(errors).not.toHaveBeenCalled();
  });
});
