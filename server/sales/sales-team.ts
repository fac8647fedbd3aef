import type { AccountRecord, AccountStore } from '../../back-office/accounts/account-store.ts';
import type { Role } from '../../back-office/roles.ts';
import type { AccountId, Availability, SalesStore } from '../store/sales/sales-store.ts';
import { defaultAvailability } from './availability.ts';
import type { WeeklyHours } from './working-time.ts';

// The people leads can go to, with their working hours. Round-robin and the ladder hand leads only
// to `sales` accounts; an admin may be given a lead by hand (they can work it) but is never picked
// by the round-robin, so the person who manages the team is not handed the day's calls. A person
// who never set their hours works the site's business hours in the site's zone.

export type TeamMember = Availability & { readonly email: string; readonly role: Role };

/** Roles a lead can be given to by hand. */
export const OWNER_ROLES: readonly Role[] = ['sales', 'admin'];

export type TeamStore = Pick<AccountStore, 'listAccounts'> & Pick<SalesStore, 'listAvailability'>;

/** Every account that can own a lead (sales and admin), each with their stored availability or the default. */
export async function readTeam(store: TeamStore, siteHours: WeeklyHours): Promise<TeamMember[]> {
  const [accounts, availability] = await Promise.all([store.listAccounts(), store.listAvailability()]);
  const stored = new Map(availability.map((entry) => [entry.accountId, entry]));
  return accounts
    .filter((account) => OWNER_ROLES.includes(account.role))
    .map((account: AccountRecord) => ({
      ...availabilityOf(account.id, stored.get(account.id), siteHours),
      email: account.email,
      role: account.role,
    }));
}

/** A person's hours: as they set them, or the default hours with their place in the round kept. */
function availabilityOf(accountId: AccountId, stored: Availability | undefined, siteHours: WeeklyHours): Availability {
  if (stored === undefined) return defaultAvailability(accountId, siteHours);
  if (!stored.defaultHours) return stored;
  return { ...defaultAvailability(accountId, siteHours), away: stored.away, lastAssignedAt: stored.lastAssignedAt };
}

/** The people round-robin picks from: the `sales` accounts. */
export function roundRobinPeople(team: readonly TeamMember[]): TeamMember[] {
  return team.filter((member) => member.role === 'sales');
}

/** A person's address as the timeline and the messages show it, or `nobody` for no owner. */
export function emailOf(team: readonly TeamMember[], accountId: AccountId | undefined): string | undefined {
  return accountId === undefined ? undefined : team.find((member) => member.accountId === accountId)?.email;
}
