// How long a form waits for the visitor to pause before it hydrates, shared by the page shell that
// waits and by the tests and the startup bench that must wait as long (renderer/shell/islands.ts).

/** How long the visitor leaves a form alone (no key, no touch) before it hydrates. */
export const FORM_PAUSE_MS = 500;
