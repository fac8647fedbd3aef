// Who may do what in the back office. Every account has exactly one role; a screen or command asks
// `can(role, action)` instead of comparing role names, so what a role allows is decided here once.

export const ROLES = ['admin', 'sales', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const ACTIONS = [
  'leads:read',
  'leads:export',
  'leads:retry',
  'leads:mark-spam',
  'leads:erase',
  'leads:work',
  'leads:assign',
  'sales:manage',
  'analytics:read',
  'studio:edit',
  'studio:publish',
  'studio:review',
  'accounts:manage',
] as const;
/**
 * leads:read and leads:export: see the inbox and take a copy of it; leads:retry: forward a lead
 * again; leads:mark-spam: mark a lead spam or not spam; leads:erase: delete a person's leads for
 * good; leads:work: log calls and e-mails, change a lead's sales status, write notes, set one's own
 * working hours; leads:assign: give a lead to another person; sales:manage: set the assignment rules
 * and anyone's working hours; analytics:read: see the visit and conversion reports (counts only, but a lead accepted or
 * delivered under a campaign link sent to one person would tell whether that person sent a lead, so
 * only the roles that may read the leads have it); studio:edit: edit and publish content in the studio; studio:publish: publish without a
 * review when the studio requires one (STUDIO_REVIEW=required); studio:review: approve or send back
 * the studio's review requests; accounts:manage: add, change and remove accounts.
 */
export type Action = (typeof ACTIONS)[number];

// Each role lists everything it may do, so a reader sees a role's reach in one line. Erasure and
// account management are admin-only: both are hard to undo and can lock other people out. So are
// publishing without review and reviewing others' changes: they only matter when the studio requires
// review, and then an editor's changes wait for an admin.
export const ROLE_ACTIONS: Readonly<Record<Role, readonly Action[]>> = {
  viewer: ['leads:read', 'leads:export', 'analytics:read'],
  sales: ['leads:read', 'leads:export', 'leads:retry', 'leads:mark-spam', 'leads:work', 'leads:assign', 'analytics:read'],
  editor: ['studio:edit'],
  admin: ACTIONS,
};

/** What each role is for, in the words the CLI's help and the README use. */
export const ROLE_SUMMARIES: Readonly<Record<Role, string>> = {
  viewer: 'reads the leads and exports them, and reads the visit reports',
  sales:
    'reads and exports the leads, works them (logs calls and e-mails, sets their status, writes notes, sets their own working hours), gives a lead to another person, forwards them again, marks them spam or not spam, and reads the visit reports',
  editor: 'edits and publishes the site in the content studio',
  admin: 'everything, including erasing leads, managing accounts and setting the assignment rules',
};

export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

/**
 * True when `role` may do `action`. A role this code does not know (one stored by a newer or older
 * version) may do nothing, so an unknown role can never widen anyone's access.
 */
export function can(role: Role, action: Action): boolean {
  return isRole(role) && ROLE_ACTIONS[role].includes(action);
}

/**
 * What a route of the console or the studio requires, declared on the route itself
 * (`config: { right }`, back-office/front-door/access.ts):
 * - `public`: files that hold nothing private (the apps' own scripts and styles), no session looked up;
 * - `anyone`: signing in and reading whether one is signed in;
 * - `signed-in`: any live session of that app;
 * - an Action: a live session whose person may do it.
 */
export type Right = 'public' | 'anyone' | 'signed-in' | Action;
