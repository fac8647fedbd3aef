// The sales queue's vocabulary: where a sale stands, what a person did about a lead, how a rule
// recognises its leads and when a person works. The store, the server and the console name them
// from here, the lead domain every side may import.

/** Where the sale stands; `new` until a person moves it. `lost` carries a reason. */
export const SALES_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
export type SalesStatus = (typeof SALES_STATUSES)[number];

/** What a person did that the timeline records. Calls, e-mails and meetings are human touches. */
export const ACTIVITY_KINDS = ['assigned', 'call', 'email', 'meeting', 'status', 'note', 'escalated', 'joined'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The outcome a person picks when logging a call or an e-mail. */
export const TOUCH_OUTCOMES = ['reached', 'left-voicemail', 'no-answer', 'wrong-number', 'sent'] as const;
export type TouchOutcome = (typeof TOUCH_OUTCOMES)[number];

/** How a rule recognises its leads: the form, the Service Interest answer, the utm_campaign, or a company domain someone already owns. */
export const RULE_KINDS = ['form', 'service', 'campaign', 'domain'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** One weekly working window in the person's own time zone: day 0 = Sunday, minutes after midnight. */
export type WorkingWindow = { readonly day: number; readonly startMinute: number; readonly endMinute: number };
