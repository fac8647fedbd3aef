// V8 compiles each function the first time it runs. React's event system and the re-render that
// answers a key run for the first time under the visitor's first tap and key in a hydrated form, and
// compiling them there took ~80 ms of that tap and key at 16× CPU slowdown. So once an island with
// fields has hydrated, the same code runs once, at idle moments, on a field of its own that is not in
// the page: a tap and a focus on it, then a key, then a press of a button and the field's blur, each
// event in a task of its own (compiling is most of the work, the first events' most of all). Nothing
// on the page sees these events (the field is in no document, so they reach no listener but React's
// on it), nothing is sent, and focus does not move.
import { useState } from 'react';
import type * as ReactDomClient from 'react-dom/client';
import { idleTask } from '../../ui/page/when-idle.ts';
import { withoutUnhandledEventListeners } from './island-events.ts';

function WarmUpField() {
  const [value, setValue] = useState('');
  const [focused, setFocused] = useState(false);
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <input
        name="warm-up"
        value={value}
        aria-invalid={focused}
        onFocus={() => setFocused(true)}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={() => {}}
      />
      <button type="button" onClick={() => setFocused(false)}>
        {value}
      </button>
    </form>
  );
}

const setValue = (field: HTMLInputElement, value: string) =>
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, value);

let warmed = false;

/** Runs React's event system and a key's re-render once, off the page, at idle moments (once per page load). */
export async function warmUpEvents({ createRoot }: typeof ReactDomClient): Promise<void> {
  if (warmed) return;
  warmed = true;
  await idleTask();
  const container = document.createElement('div');
  const root = withoutUnhandledEventListeners(container, () => createRoot(container));
  try {
    root.render(<WarmUpField />);
    await idleTask();
    const field = container.querySelector('input');
    const button = container.querySelector('button');
    if (field && button) await tapTypeAndLeave(field, button);
  } finally {
    root.unmount();
  }
}

/** What a tap on a field sends, then a key, then a tap on a button, which the field loses focus to: one event per idle task. */
async function tapTypeAndLeave(field: HTMLInputElement, button: HTMLButtonElement): Promise<void> {
  const steps: (() => unknown)[] = [
    () => field.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true })),
    () => field.dispatchEvent(new FocusEvent('focusin', { bubbles: true })),
    () => field.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, cancelable: true })),
    () => field.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })),
    () => field.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, key: '7' })),
    () => field.dispatchEvent(new KeyboardEvent('keypress', { bubbles: true, cancelable: true, key: '7' })),
    () => {
      setValue(field, '7');
      field.dispatchEvent(new InputEvent('input', { bubbles: true, data: '7', inputType: 'insertText' }));
    },
    () => field.dispatchEvent(new KeyboardEvent('keyup', { bubbles: true, cancelable: true, key: '7' })),
    () => button.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })),
    // React keeps which field has focus for all its roots (for onSelect) until a blur: this one leaves.
    () => field.dispatchEvent(new FocusEvent('focusout', { bubbles: true })),
  ];
  for (const step of steps) {
    step();
    await idleTask();
  }
}
