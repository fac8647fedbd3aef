/** Titles inside a block sit one level under its section heading; without one they are h2, so levels never skip. */
export function itemHeadingTag(sectionHasHeading: boolean): 'h2' | 'h3' {
  return sectionHasHeading ? 'h3' : 'h2';
}
