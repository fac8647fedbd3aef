// @vitest-environment happy-dom
import { useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { DayRange } from '../../api-types.ts';
import { RangeForm } from './RangeForm.tsx';

// Rendered as in the browser, outside Testing Library's act(), which would run React's effects before
// the test's next step: the point is what a key typed between a render and its effects does.
const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
const actBefore = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
const roots: Root[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) root.unmount();
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = actBefore;
  document.body.innerHTML = '';
});

/** Types `value` into a field as a browser does: the field's own value setter, then the input event. */
function typeInto(field: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('the range form', () => {
  it('keeps a day typed the moment the server’s range is shown, and sends it', async () => {
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    const container = document.body.appendChild(document.createElement('div'));
    const applied: Partial<DayRange>[] = [];
    let showRange: (range: Partial<DayRange>) => void = () => {};
    // A screen as the Speed and Analytics screens are: no days until the report brings them.
    function Screen() {
      const [range, setRange] = useState<Partial<DayRange>>({});
      showRange = setRange;
      return (
        <>
          {range.from ? <p id="figures">Figures</p> : null}
          <RangeForm range={range} now={Date.UTC(2025, 2, 2)} onApply={(next) => applied.push(next)} />
        </>
      );
    }
    const root = createRoot(container);
    roots.push(root);
    root.render(<Screen />);
    for (let waited = 0; !container.querySelector('form'); waited += 10) {
      if (waited > 5_000) throw new Error('the form did not render within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const field = (name: string) => container.querySelector<HTMLInputElement>(`input[name=${name}]`)!;
    // The visitor types as soon as the figures appear: in the same moment the page changed.
    const typed = new Promise<void>((resolve) => {
      new MutationObserver((_, observer) => {
        if (!container.querySelector('#figures')) return;
        observer.disconnect();
        typeInto(field('from'), '2025-01-01');
        resolve();
      }).observe(container, { childList: true, subtree: true });
    });
    // The report arrives, as a fetch's answer does.
    await Promise.resolve().then(() => showRange({ from: '2025-02-01', to: '2025-03-02' }));
    await typed;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([field('from').value, field('to').value]).toEqual(['2025-01-01', '2025-03-02']);
    container.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    expect(applied).toEqual([{ from: '2025-01-01', to: '2025-03-02' }]);
  });
});
