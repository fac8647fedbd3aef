// The apps that sign people in from the team's accounts. Each session belongs to the app that
// started it and is accepted by that app alone, so a session id that leaks from one (its cookie, a
// log line, a shared browser profile) opens nothing in the other. Ending an account's sessions
// (removal, a new password, "sign out everywhere") ends them in both. No Node imports: the console's
// browser code reads the store's types.

export const SESSION_APPS = ['console', 'studio'] as const;
export type SessionApp = (typeof SESSION_APPS)[number];

/** An unknown app is a mistake in the calling code: refused before anything is stored or looked up. */
export function assertSessionApp(app: string): void {
  if (!(SESSION_APPS as readonly string[]).includes(app)) throw new Error(`Unknown session app "${app}"`);
}
