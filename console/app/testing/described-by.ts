// For component tests: what a control's aria-describedby says, as a screen reader reads it.

/** The text of every element a control's aria-describedby points at, joined; a missing id fails loudly. */
export function describedBy(element: Element): string {
  const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids
    .map((id) => {
      const described = document.getElementById(id);
      if (!described) throw new Error(`aria-describedby points at #${id}, which is not on the page`);
      return described.textContent ?? '';
    })
    .join(' | ');
}
