// @vitest-environment happy-dom
// A hydrated island answers clicks, keys and changes as before, while React adds no listener on it for
// touches, pointers, hover, scrolling or CSS transitions (each of which made a phone's tap slower).
import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENTS_NO_ISLAND_HANDLES, withoutUnhandledEventListeners } from './island-events.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Form({ onSend }: { onSend: (hours: string) => void }) {
  const [hours, setHours] = useState('');
  return (
    <form>
      <label>
        Hours
        <input name="hours" value={hours} onChange={(event) => setHours(event.target.value)} />
      </label>
      <button type="button" onClick={() => onSend(hours)}>
        Send
      </button>
    </form>
  );
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

/** Hydrates the form in a fresh island and returns the event types React added listeners for on it. */
function hydrateForm(onSend: (hours: string) => void): { island: HTMLElement; listenedTo: Set<string> } {
  const island = document.createElement('div');
  island.innerHTML = renderToString(<Form onSend={onSend} />);
  document.body.append(island);
  const listenedTo = new Set<string>();
  // Wherever the DOM defines addEventListener for elements: the island's own is replaced while React starts.
  let owner: object = island;
  while (!Object.hasOwn(owner, 'addEventListener')) owner = Object.getPrototypeOf(owner) as object;
  const add = island.addEventListener;
  vi.spyOn(owner as EventTarget, 'addEventListener').mockImplementation(function (this: EventTarget, type, listener, options) {
    if (this === island) listenedTo.add(type);
    if (listener) add.call(this, type, listener, options);
  });
  act(() => {
    root = withoutUnhandledEventListeners(island, () => hydrateRoot(island, <Form onSend={onSend} />));
  });
  return { island, listenedTo };
}

describe('withoutUnhandledEventListeners', () => {
  it('leaves out React’s touch, pointer, hover, scroll and transition listeners on the island', () => {
    const { island, listenedTo } = hydrateForm(() => {});
    const touchPointerHoverScrollTransition =
      /^(touch|pointer|gotpointercapture|lostpointercapture|mousemove|mouseover|mouseout|wheel|scroll|transition|animation)/;
    expect([...listenedTo].filter((type) => touchPointerHoverScrollTransition.test(type))).toEqual([]);
    expect([...EVENTS_NO_ISLAND_HANDLES].every((type) => touchPointerHoverScrollTransition.test(type))).toBe(true);
    // The island's own addEventListener is the DOM's again.
    expect(Object.hasOwn(island, 'addEventListener')).toBe(false);
    // React's own listeners did reach the island: the ones its forms need.
    expect([...listenedTo]).toEqual(expect.arrayContaining(['click', 'input', 'change', 'keydown', 'focusin', 'submit']));
  });

  it('keeps the island answering: a value typed into the field is what the button sends', () => {
    const sent: string[] = [];
    const { island } = hydrateForm((hours) => sent.push(hours));
    const field = island.querySelector('input')!;
    act(() => {
      // What the browser does for a key: the value changes, then an input event.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, '40');
      field.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => island.querySelector('button')!.click());
    expect(sent).toEqual(['40']);
  });

  it('adds listeners on the island as usual once the root is created, or when creating it failed', () => {
    const island = document.createElement('div');
    const failed = () =>
      withoutUnhandledEventListeners(island, () => {
        throw new Error('no root');
      });
    expect(failed).toThrow('no root');
    const touched = vi.fn();
    island.addEventListener('touchstart', touched);
    island.dispatchEvent(new Event('touchstart'));
    expect(touched).toHaveBeenCalledOnce();
    expect(Object.hasOwn(island, 'addEventListener')).toBe(false);
  });
});
