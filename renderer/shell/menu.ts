// The header's menu on narrow screens, without React: the toggle's aria-expanded is the menu's whole
// state, and the header's CSS shows the menu from it (renderer/layout/Header.tsx). Listeners sit on
// the document, so they work for every header the page ever shows (client-side navigation replaces it).

/** Marks the button that opens and closes the element its aria-controls names. */
export const MENU_TOGGLE_ATTRIBUTE = 'data-menu-toggle';

const OPEN_TOGGLES = `[${MENU_TOGGLE_ATTRIBUTE}][aria-expanded="true"]`;

export function startMenu(doc: Document = document): void {
  doc.addEventListener('click', (event) => {
    if (!(event.target instanceof Element)) return;
    const toggle = event.target.closest(`[${MENU_TOGGLE_ATTRIBUTE}]`);
    if (toggle) {
      toggle.setAttribute('aria-expanded', String(toggle.getAttribute('aria-expanded') !== 'true'));
      return;
    }
    // Following a link in the menu closes it.
    const link = event.target.closest('a');
    if (!link) return;
    for (const open of doc.querySelectorAll(OPEN_TOGGLES)) {
      if (controlledBy(open)?.contains(link)) open.setAttribute('aria-expanded', 'false');
    }
  });
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const open of doc.querySelectorAll<HTMLElement>(OPEN_TOGGLES)) {
      open.setAttribute('aria-expanded', 'false');
      open.focus();
    }
  });
}

function controlledBy(toggle: Element): HTMLElement | null {
  const id = toggle.getAttribute('aria-controls');
  return id ? toggle.ownerDocument.getElementById(id) : null;
}
