// @vitest-environment happy-dom
// While an island hydrates, the keys and taps in its fields stay the browser's: they must not reach
// React's listeners on the island (which would hydrate all of it in one long task to answer them),
// while a button press still does, and everything reaches React again once the island has hydrated.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELD_EVENTS, holdFieldEventsFromReact } from './field-events-guard.ts';

let island: HTMLElement;
let seenByIsland: string[];
let seenByPage: string[];
const recordIsland = (event: Event) => seenByIsland.push(`${event.type}:${(event.target as Element).id}`);
const recordPage = (event: Event) => seenByPage.push(`${event.type}:${(event.target as Element).id}`);

beforeEach(() => {
  document.body.innerHTML = `
    <main>
      <div data-island="roi-calculator" id="island">
        <form>
          <label for="hours" id="label">Hours</label>
          <input id="hours" name="hours" type="number">
          <select id="service" name="service"><option>A</option></select>
          <textarea id="message" name="message"></textarea>
          <input id="callback" type="checkbox" name="callback">
          <button id="send" type="submit">Send</button>
          <input id="go" type="submit" value="Go">
        </form>
      </div>
      <input id="outside" name="outside">
    </main>`;
  island = document.getElementById('island')!;
  seenByIsland = [];
  seenByPage = [];
  // Where React listens: on the island itself, in both phases.
  for (const type of [...FIELD_EVENTS, 'focusin', 'submit']) {
    island.addEventListener(type, recordIsland, { capture: true });
    island.addEventListener(type, recordIsland);
    document.addEventListener(type, recordPage, { capture: true });
  }
});

afterEach(() => {
  for (const type of FIELD_EVENTS) document.removeEventListener(type, recordPage, { capture: true });
});

const fire = (id: string, type: string) => document.getElementById(id)!.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));

describe('holdFieldEventsFromReact', () => {
  it('keeps every key and tap in a field from the island while it hydrates, and lets the page see them first', () => {
    holdFieldEventsFromReact(island);
    for (const id of ['hours', 'service', 'message', 'callback', 'label']) {
      for (const type of ['mousedown', 'keydown', 'input', 'keyup', 'change', 'click']) fire(id, type);
    }
    expect(seenByIsland).toEqual([]);
    expect(seenByPage).toHaveLength(5 * 6);
  });

  it('does not stop what the browser does with the key: the event is not cancelled', () => {
    holdFieldEventsFromReact(island);
    const event = new Event('keydown', { bubbles: true, cancelable: true });
    document.getElementById('hours')!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });

  it('lets a button press through, which React answers at once', () => {
    holdFieldEventsFromReact(island);
    fire('send', 'click');
    fire('go', 'mousedown');
    expect(seenByIsland).toEqual(['click:send', 'click:send', 'mousedown:go', 'mousedown:go']);
  });

  it('leaves fields outside the island and events it does not hold alone', () => {
    holdFieldEventsFromReact(island);
    fire('outside', 'keydown');
    fire('hours', 'focusin');
    fire('hours', 'submit');
    expect(seenByIsland).toEqual(['focusin:hours', 'focusin:hours', 'submit:hours', 'submit:hours']);
    expect(seenByPage).toContain('keydown:outside');
  });

  it('on release, writes each field back to itself, so the record React keeps of it catches up with keys it never saw', () => {
    // As React does: a record of the value and the tick, kept by wrapping the element's own setters.
    const recorded: Record<string, string | boolean> = {};
    const track = (element: HTMLInputElement | HTMLTextAreaElement, property: 'value' | 'checked') => {
      const prototype = Object.getPrototypeOf(element) as object;
      const native = Object.getOwnPropertyDescriptor(prototype, property)!;
      Object.defineProperty(element, property, {
        configurable: true,
        get: () => native.get!.call(element) as string | boolean,
        set: (value: string | boolean) => {
          recorded[element.id] = value;
          native.set!.call(element, value);
        },
      });
    };
    const hours = document.getElementById('hours') as HTMLInputElement;
    const message = document.getElementById('message') as HTMLTextAreaElement;
    const callback = document.getElementById('callback') as HTMLInputElement;
    track(hours, 'value');
    track(message, 'value');
    track(callback, 'checked');
    const release = holdFieldEventsFromReact(island);
    // Typed and ticked while held: the browser changes the fields without their setters.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(hours, '42');
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(message, 'Calls after hours');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')!.set!.call(callback, true);
    expect(recorded).toEqual({});
    release();
    expect(recorded).toEqual({ hours: '42', message: 'Calls after hours', callback: true });
    expect(hours.value).toBe('42');
  });

  it('gives every event back to React once released', () => {
    const release = holdFieldEventsFromReact(island);
    fire('hours', 'keydown');
    release();
    fire('hours', 'keydown');
    fire('hours', 'input');
    expect(seenByIsland).toEqual(['keydown:hours', 'keydown:hours', 'input:hours', 'input:hours']);
  });
});
