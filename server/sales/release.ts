import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import { changeAccountRole, removeAccount } from '../../back-office/accounts/operations.ts';
import { SYSTEM_ACTOR, type Acting } from '../../back-office/accounts/audit-trail.ts';
import type { Role } from '../../back-office/roles.ts';
import type { AccountId, SalesStore } from '../store/sales/sales-store.ts';
import { assignedText } from './assigner.ts';
import { chooseOwner } from './assignment.ts';
import { isAvailable } from './availability.ts';
import { ownerFollowUp } from './crm-follow-ups.ts';
import { emailOf, OWNER_ROLES, readTeam, roundRobinPeople, type TeamStore } from './sales-team.ts';
import type { WeeklyHours } from './working-time.ts';

// A person removed from the team, or whose role no longer works leads (anything but sales or admin),
// loses their open leads: each goes back to unassigned (one audit entry, by whoever made the change)
// and then straight to the next available sales person by round-robin. A lead nobody can take now
// waits in "Not assigned yet", and the assigner gives it to the first person who becomes available.
// The console's accounts screen and `npm run users` both go through here, so either leaves the same trail.

export type ReleaseStore = TeamStore &
  Pick<AccountStore, 'findAccount' | 'removeAccount' | 'setAccountRole' | 'createAccount' | 'setAccountPassword'> &
  Pick<SalesStore, 'releaseOwner' | 'reassign'>;

/** Takes every open lead from `account`, audited as done by `acting`, and hands them out again. Returns the leads released. */
export async function releaseLeadsOf(
  store: ReleaseStore,
  acting: Acting,
  account: { id: AccountId; email: string },
  why: string,
  siteHours: WeeklyHours,
): Promise<string[]> {
  const released = await store.releaseOwner(
    account.id,
    acting.at,
    {
      at: acting.at,
      actor: acting.actor,
      action: 'lead.release',
      detail: `The open leads of ${account.email} went back to round-robin (${why})`,
    },
    account.email,
  );
  if (released.length === 0) return released;
  const team = await readTeam(store, siteHours);
  let people = roundRobinPeople(team).filter((person) => person.accountId !== account.id);
  // Each hand-out gets its own moment, for round-robin's turn.
  let at = acting.at;
  for (const leadId of released) {
    at += 1;
    if (!people.some((person) => isAvailable(person, at))) break;
    const choice = chooseOwner({
      lead: { leadId, receivedAt: at, source: '', email: '', phone: undefined, campaign: undefined, serviceInterest: undefined },
      rules: [],
      people,
      domainOwner: undefined,
      at,
    });
    if (choice.ownerId === undefined) break;
    const ownerEmail = emailOf(team, choice.ownerId);
    const reason = `round-robin: ${account.email} ${why}`;
    const moved = await store.reassign({
      leadId,
      expectedOwnerId: undefined,
      ownerId: choice.ownerId,
      at,
      activity: {
        leadId,
        at,
        kind: 'assigned',
        actorId: undefined,
        actor: SYSTEM_ACTOR,
        detail: { ownerId: choice.ownerId, owner: ownerEmail ?? null, previousOwner: account.email, reason },
      },
      audit: { at, actor: SYSTEM_ACTOR, action: 'lead.assign', detail: `${leadId}: ${assignedText(ownerEmail, reason)}` },
      crmEvents: [ownerFollowUp({ leadId, at, ownerEmail, previousOwnerEmail: account.email })],
      roundRobin: true,
    });
    if (moved) people = people.map((person) => (person.accountId === choice.ownerId ? { ...person, lastAssignedAt: at } : person));
  }
  return released;
}

/** Removes an account (back-office/accounts/operations.ts) and releases its leads when it was removed. */
export async function removeTeamAccount(store: ReleaseStore, acting: Acting, email: string, siteHours: WeeklyHours) {
  const account = await store.findAccount(email);
  const result = await removeAccount(store, acting, email);
  if (result.kind === 'removed' && account !== undefined) await releaseLeadsOf(store, acting, account, 'account removed', siteHours);
  return result;
}

/** Changes an account's role and, when the new role no longer works leads, releases them. */
export async function changeTeamRole(store: ReleaseStore, acting: Acting, email: string, role: Role, siteHours: WeeklyHours) {
  const result = await changeAccountRole(store, acting, email, role);
  if (result.kind === 'changed' && OWNER_ROLES.includes(result.previousRole) && !OWNER_ROLES.includes(role)) {
    await releaseLeadsOf(store, acting, result.account, `now ${role}, no longer in sales`, siteHours);
  }
  return result;
}
