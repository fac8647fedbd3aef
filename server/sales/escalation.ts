import type { AccountId, Availability, UntouchedLead } from '../store/sales/sales-store.ts';
import { byLongestWaiting, isAvailable } from './availability.ts';
import { addWorkingMs, type WeeklyHours } from './working-time.ts';

// The escalation ladder of a lead nobody has touched. Its steps are minutes of business time on the
// lead's clock (ESCALATE_AFTER_MINUTES, default 5,15,60), so a lead sent at night is not escalated
// before anyone could have answered it:
//   step 1: the owner is told; a lead with no owner tells the whole sales team instead, since
//           nobody else would hear of it;
//   step 2: the whole sales team is told;
//   step 3: the lead goes to the next available sales person (not the owner who let it wait).
// Steps are taken one at a time, in order, each once (the store takes step n only from step n - 1):
// after a pause (a restart, a night) every step that came due is taken in turn.

export const DEFAULT_ESCALATE_AFTER = [5, 15, 60] as const;
export const ESCALATION_STEPS = 3;

/** ESCALATE_AFTER_MINUTES: three increasing whole numbers of minutes; empty or unset gives 5,15,60. */
export function parseEscalateAfter(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [...DEFAULT_ESCALATE_AFTER];
  const parts = text.split(',').map((part) => part.trim());
  const minutes = parts.map((part) => (/^\d{1,5}$/.test(part) ? Number(part) : NaN));
  const increasing = minutes.every((value, index) => index === 0 || value > minutes[index - 1]!);
  if (minutes.length !== ESCALATION_STEPS || minutes.some((value) => !(value > 0)) || !increasing) {
    throw new Error(
      `ESCALATE_AFTER_MINUTES must be three whole numbers of minutes, each larger than the one before, separated by commas, such as 5,15,60 (it is "${text}").`,
    );
  }
  return minutes;
}

export type EscalationAction = 'tell-owner' | 'tell-team' | 'reassign';

/** What step `step` does for a lead with this owner (undefined: unassigned). */
export function stepAction(step: number, ownerId: number | undefined): EscalationAction {
  if (step >= 3) return 'reassign';
  if (step === 1 && ownerId !== undefined) return 'tell-owner';
  return 'tell-team';
}

/**
 * The next step of the lead's ladder when its business-time threshold has passed by `now`, with the
 * moment it came due; undefined when the next step is not due yet or the ladder is done.
 */
export function dueStep(
  lead: UntouchedLead,
  hours: WeeklyHours,
  steps: readonly number[],
  now: number,
): { step: number; dueAt: number } | undefined {
  const step = lead.escalationStep + 1;
  const minutes = steps[step - 1];
  if (minutes === undefined) return undefined;
  const dueAt = addWorkingMs(hours, lead.clockStartsAt, minutes * 60_000);
  return now >= dueAt ? { step, dueAt } : undefined;
}

/**
 * Who takes a lead at the last step: the available sales person waiting longest for a lead
 * (round-robin's order), never the owner who let it wait; undefined when nobody else is available.
 */
export function reassignTarget(currentOwner: AccountId | undefined, people: readonly Availability[], at: number): AccountId | undefined {
  return [...people].filter((person) => person.accountId !== currentOwner && isAvailable(person, at)).sort(byLongestWaiting)[0]?.accountId;
}
