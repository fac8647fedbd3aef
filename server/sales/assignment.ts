import type { Role } from '../../back-office/roles.ts';
import type { AccountId, AssignmentRule, Availability, UnplacedLead } from '../store/sales/sales-store.ts';
import { byLongestWaiting, isAvailable } from './availability.ts';

// Who gets a new lead. The admin's rules are tried in their order: a `form` rule matches the form
// the lead came from, a `service` rule its Service Interest answer, a `campaign` rule its
// utm_campaign (both ignoring capitals and surrounding spaces), a `domain` rule gives it to whoever
// owns another lead from the same company domain. A rule whose person is not available now (away,
// off shift, no longer in sales) is passed over, so a lead never waits for someone who is not
// working: the next rule is tried, then round-robin among the sales people available, the one
// waiting longest for a lead first (never given one = waiting longest; ties by account id, so
// every process picks the same person). With nobody available the lead stays unassigned and its
// clock keeps running; the queue shows it to everyone.

export type OwnerChoice = {
  readonly ownerId: AccountId | undefined;
  readonly roundRobin: boolean;
  /** Why, for the lead's timeline: `rule 2 (form is Contact Page Form)`, `round-robin`, `nobody available`. */
  readonly reason: string;
};

export function chooseOwner(input: {
  lead: UnplacedLead;
  rules: readonly AssignmentRule[];
  /** The sales people leads may go to, with their availability. */
  people: readonly Availability[];
  /** The owner of another lead from the lead's company domain, for `domain` rules. */
  domainOwner: AccountId | undefined;
  at: number;
}): OwnerChoice {
  const { lead, rules, people, domainOwner, at } = input;
  const available = people.filter((person) => isAvailable(person, at));
  const isAvailableId = (id: AccountId | undefined) => id !== undefined && available.some((person) => person.accountId === id);

  for (const [index, rule] of rules.entries()) {
    if (!ruleMatches(rule, lead, domainOwner)) continue;
    const ownerId = rule.kind === 'domain' ? domainOwner : rule.ownerId;
    if (isAvailableId(ownerId)) return { ownerId, roundRobin: false, reason: `rule ${index + 1} (${describeRule(rule)})` };
  }

  const next = [...available].sort(byLongestWaiting)[0];
  if (next) return { ownerId: next.accountId, roundRobin: true, reason: 'round-robin' };
  return { ownerId: undefined, roundRobin: false, reason: 'nobody available' };
}

function ruleMatches(rule: AssignmentRule, lead: UnplacedLead, domainOwner: AccountId | undefined): boolean {
  switch (rule.kind) {
    case 'form':
      return rule.value.trim() !== '' && lead.source === rule.value.trim();
    case 'service':
      return sameText(rule.value, lead.serviceInterest);
    case 'campaign':
      return sameText(rule.value, lead.campaign);
    case 'domain':
      return domainOwner !== undefined && isCompanyDomain(emailDomain(lead.email));
  }
}

function sameText(ruleValue: string, leadValue: string | undefined): boolean {
  const wanted = ruleValue.trim().toLowerCase();
  return wanted !== '' && leadValue !== undefined && leadValue.trim().toLowerCase() === wanted;
}

/** A rule in words, as the timeline names it: "form is Contact Page Form". */
export function describeRule(rule: Pick<AssignmentRule, 'kind' | 'value'>): string {
  switch (rule.kind) {
    case 'form':
      return `form is ${rule.value.trim()}`;
    case 'service':
      return `service interest is ${rule.value.trim()}`;
    case 'campaign':
      return `campaign is ${rule.value.trim()}`;
    case 'domain':
      return 'same company as an earlier lead';
  }
}

// ---- company domains ----

// Free e-mail providers: two people at gmail.com are not one company, so their leads never share an
// owner by domain. Whole families (yahoo.co.uk, hotmail.fr, gmx.de) are matched by their first label.
const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'msn.com',
  'ymail.com',
  'rocketmail.com',
  'proton.me',
  'protonmail.com',
  'protonmail.ch',
  'pm.me',
  'mail.com',
  'email.com',
  'zoho.com',
  'zohomail.com',
  'fastmail.com',
  'fastmail.fm',
  'hey.com',
  'tutanota.com',
  'tuta.io',
  'mail.ru',
  'inbox.ru',
  'bk.ru',
  'list.ru',
  'web.de',
  't-online.de',
  'freenet.de',
  'orange.fr',
  'wanadoo.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'virgilio.it',
  'qq.com',
  '163.com',
  '126.com',
  'sina.com',
  'naver.com',
  'daum.net',
  'rediffmail.com',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  'bellsouth.net',
  'cox.net',
  'charter.net',
  'earthlink.net',
  'optonline.net',
  'btinternet.com',
  'sky.com',
  'shaw.ca',
  'rogers.com',
  'sympatico.ca',
  'bigpond.com',
  'optusnet.com.au',
  'hushmail.com',
  'duck.com',
]);
const FREE_MAIL_FAMILIES: ReadonlySet<string> = new Set(['yahoo', 'hotmail', 'outlook', 'live', 'aol', 'gmx', 'yandex']);

/** The part after the last "@", lower case, without a trailing dot; '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '';
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.+$/, '');
}

/** Whether the domain can stand for one company: a real domain name, not a free e-mail provider. */
export function isCompanyDomain(domain: string): boolean {
  const name = domain.trim().toLowerCase().replace(/\.+$/, '');
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name)) return false;
  if (FREE_MAIL_DOMAINS.has(name)) return false;
  return !FREE_MAIL_FAMILIES.has(name.split('.')[0]!);
}

// ---- warnings when rules are saved ----

type RulePerson = { readonly id: AccountId; readonly role: Role; readonly email: string };

/**
 * For each rule, in order, a sentence saying why it would give leads to nobody (or to fewer leads
 * than it seems to), or null when it is fine. Shown beside the rule when the admin saves them.
 */
export function ruleWarnings(
  rules: readonly Pick<AssignmentRule, 'kind' | 'value' | 'ownerId'>[],
  people: readonly RulePerson[],
  knownForms: readonly string[],
): (string | null)[] {
  return rules.map((rule, index) => {
    const earlier = rules.slice(0, index);
    const value = rule.value.trim();
    if (rule.kind !== 'domain') {
      if (value === '') return `This rule has no ${WHAT_IT_MATCHES[rule.kind]} to match, so no lead ever follows it.`;
      if (rule.kind === 'form' && !knownForms.includes(value)) {
        return `No form is called "${value}", so no lead ever follows this rule. The forms are: ${knownForms.join(', ')}.`;
      }
      const person = rule.ownerId === undefined ? undefined : people.find((candidate) => candidate.id === rule.ownerId);
      if (rule.ownerId === undefined) return 'This rule names nobody to give its leads to; they go to round-robin.';
      if (!person) return 'The person this rule gives leads to no longer has an account; its leads go to round-robin.';
      if (person.role !== 'sales') {
        return `${person.email} is not in sales, so this rule gives them no leads; its leads go to round-robin.`;
      }
    }
    const same = earlier.findIndex((other) => other.kind === rule.kind && other.value.trim().toLowerCase() === value.toLowerCase());
    if (same >= 0) {
      return `Rule ${same + 1} already catches the same leads, so this one only gets a lead when rule ${same + 1}'s person is not available.`;
    }
    const formsCaught = new Set(earlier.filter((other) => other.kind === 'form').map((other) => other.value.trim()));
    if (knownForms.length > 0 && knownForms.every((form) => formsCaught.has(form))) {
      return 'The rules above already catch the leads of every form, so this one only gets a lead when their people are not available.';
    }
    return null;
  });
}

const WHAT_IT_MATCHES = { form: 'form', service: 'service interest', campaign: 'campaign' } as const;
