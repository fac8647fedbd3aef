// "Asked for a call-back now": the visitor ticked the box under the form and agreed to be called (the
// CRM's voice agent calls within a minute). Shown beside the lead's name wherever a lead is listed or
// opened, so a salesperson knows the person expects the phone to ring.
export const CALLBACK_BADGE_TEXT = 'Asked for a call-back now';

export function CallbackBadge({ requested }: { requested: boolean }) {
  return requested ? <span className="badge badge-callback">{CALLBACK_BADGE_TEXT}</span> : null;
}
