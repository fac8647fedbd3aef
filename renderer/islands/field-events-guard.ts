// While React hydrates an island in short slices (a transition), a key pressed or a tap in one of its
// fields reaches React's listeners on the island, and React answers such an event by hydrating the
// whole island at once, in one task, before the browser may paint the key. On a slow phone that task
// is hundreds of milliseconds (the calculator's at 16× CPU), so the visitor's typing stalls exactly when
// they start.
//
// The fields do not need React for that: the browser types into them, ticks them and moves the caret
// itself, and a form reads what its fields hold once it has hydrated (forms/use-lead-form.ts). So until
// the island has hydrated, those events are stopped on their way down, before they reach the island.
// Page listeners in the capture phase (the beacon's) have seen them by then; ones in the bubble phase
// (Escape closing the menu) do not, for that moment. Buttons are left alone: a press on one needs
// React's handler, and is worth hydrating at once for.
//
// React keeps its own record of each field's value from when it hydrated the field, and fires a
// change only when what the field holds differs from that record. Keys it never saw leave the record
// behind (a field typed into and then emptied would look unchanged), so on release every field's value
// is written back to itself, which React records; the caret does not move.

/**
 * The events React answers by hydrating at once (its "discrete replayable" events) that a field gets,
 * less the touch and pointer events, which React does not listen to on an island (island-events.ts).
 */
export const FIELD_EVENTS = [
  'keydown',
  'keypress',
  'keyup',
  'input',
  'textInput',
  'compositionstart',
  'compositionend',
  'paste',
  'cut',
  'copy',
  'change',
  'mousedown',
  'mouseup',
  'click',
  'auxclick',
  'dblclick',
  'contextmenu',
  'dragstart',
  'dragend',
  'drop',
] as const;

const FIELD_SELECTOR = 'input, select, textarea, label';
const BUTTON_INPUT_TYPES = new Set(['submit', 'button', 'reset', 'image']);

function isField(target: EventTarget | null, island: Element): boolean {
  if (!(target instanceof Element) || !island.contains(target)) return false;
  const field = target.closest(FIELD_SELECTOR);
  if (!field || !island.contains(field)) return false;
  return !(field instanceof HTMLInputElement && BUTTON_INPUT_TYPES.has(field.type));
}

/**
 * Keeps the events of the fields inside `island` from React's listeners on it until the returned
 * function is called (once it has hydrated, in the same task as the form's first effects). Install it
 * before React's root is created on `island`.
 */
export function holdFieldEventsFromReact(island: HTMLElement): () => void {
  const above = island.parentNode;
  if (!above) return () => {};
  const hold = (event: Event) => {
    if (isField(event.target, island)) event.stopPropagation();
  };
  for (const type of FIELD_EVENTS) above.addEventListener(type, hold, { capture: true });
  return () => {
    for (const type of FIELD_EVENTS) above.removeEventListener(type, hold, { capture: true });
    for (const field of island.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
      if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
        const ticked = field.checked;
        field.checked = ticked;
      } else if (!(field instanceof HTMLInputElement && field.type === 'file')) {
        const value = field.value;
        field.value = value;
      }
    }
  };
}
