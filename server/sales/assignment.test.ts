import { describe, expect, it } from 'vitest';
import type { AssignmentRule, Availability, UnplacedLead } from '../store/sales/sales-store.ts';
import { chooseOwner, emailDomain, isCompanyDomain, ruleWarnings } from './assignment.ts';

const weekdays = (startMinute: number, endMinute: number) => [1, 2, 3, 4, 5].map((day) => ({ day, startMinute, endMinute }));
const ANA: Availability = {
  accountId: '1',
  timeZone: 'America/New_York',
  windows: weekdays(540, 1080),
  away: false,
  lastAssignedAt: 1_000,
  defaultHours: false,
};
const BEN: Availability = {
  accountId: '2',
  timeZone: 'America/Chicago',
  windows: weekdays(540, 1020),
  away: false,
  lastAssignedAt: 2_000,
  defaultHours: false,
};
const CY: Availability = {
  accountId: '3',
  timeZone: 'America/New_York',
  windows: weekdays(540, 1080),
  away: true,
  lastAssignedAt: undefined,
  defaultHours: false,
};
const PEOPLE = [ANA, BEN, CY];

// Wednesday 3 June 2026, 10:30 in New York = 9:30 in Chicago: Ana and Ben work, Cy is away.
const WED_1030_NEW_YORK = Date.parse('2026-06-03T14:30:00Z');
// 9:30 in New York = 8:30 in Chicago: only Ana works.
const WED_0930_NEW_YORK = Date.parse('2026-06-03T13:30:00Z');
const MIDNIGHT = Date.parse('2026-06-03T04:00:00Z');

const lead = (overrides: Partial<UnplacedLead> = {}): UnplacedLead => ({
  leadId: '7d0c3f4e-3b1a-4c8e-9f57-0c6a1f1d2e3b',
  receivedAt: WED_1030_NEW_YORK,
  source: 'Homepage Simple Lead Form',
  email: 'pat@acme.com',
  phone: undefined,
  campaign: undefined,
  serviceInterest: undefined,
  ...overrides,
});

const RULES: AssignmentRule[] = [
  { id: 11, kind: 'form', value: 'Contact Page Form', ownerId: '3' },
  { id: 12, kind: 'service', value: 'Voice Agents', ownerId: '2' },
  { id: 13, kind: 'campaign', value: 'spring-webinar', ownerId: '1' },
  { id: 14, kind: 'domain', value: '', ownerId: undefined },
];

const choose = (input: Partial<Parameters<typeof chooseOwner>[0]>) =>
  chooseOwner({ lead: lead(), rules: RULES, people: PEOPLE, domainOwner: undefined, at: WED_1030_NEW_YORK, ...input });

describe('chooseOwner', () => {
  it('follows the first matching rule whose person is available, passing over one who is away', () => {
    // Rule 1 matches the form but Cy is away; rule 2 matches the service interest, ignoring capitals and spaces.
    const choice = choose({ lead: lead({ source: 'Contact Page Form', serviceInterest: ' voice agents ' }) });
    expect(choice).toEqual({ ownerId: '2', roundRobin: false, reason: 'rule 2 (service interest is Voice Agents)' });
  });

  it('matches a campaign ignoring capitals', () => {
    expect(choose({ lead: lead({ campaign: 'Spring-Webinar' }) })).toEqual({
      ownerId: '1',
      roundRobin: false,
      reason: 'rule 3 (campaign is spring-webinar)',
    });
  });

  it('passes over a rule whose person is off shift in their own zone', () => {
    // At 9:30 in New York, Ben (Chicago) is not working yet: round-robin, and only Ana is available.
    const choice = choose({ lead: lead({ serviceInterest: 'Voice Agents' }), at: WED_0930_NEW_YORK });
    expect(choice).toEqual({ ownerId: '1', roundRobin: true, reason: 'round-robin' });
  });

  it('gives a lead to the owner of the same company domain, but never for a free e-mail address', () => {
    expect(choose({ domainOwner: '2' })).toEqual({ ownerId: '2', roundRobin: false, reason: 'rule 4 (same company as an earlier lead)' });
    expect(choose({ lead: lead({ email: 'pat@gmail.com' }), domainOwner: '2' })).toEqual({
      ownerId: '1',
      roundRobin: true,
      reason: 'round-robin',
    });
    expect(choose({ lead: lead({ email: 'pat@yahoo.co.uk' }), domainOwner: '2' }).roundRobin).toBe(true);
  });

  it('skips a rule whose person is no longer among the sales people', () => {
    const rules: AssignmentRule[] = [{ id: 1, kind: 'form', value: 'Homepage Simple Lead Form', ownerId: '42' }];
    expect(choose({ rules })).toEqual({ ownerId: '1', roundRobin: true, reason: 'round-robin' });
  });

  it('round-robin picks the available person given a lead longest ago, never-given first, ties by account', () => {
    expect(choose({ rules: [] }).ownerId).toBe('1'); // Ana 1,000 before Ben 2,000
    expect(choose({ rules: [], people: [ANA, { ...BEN, lastAssignedAt: undefined }] }).ownerId).toBe('2');
    expect(
      choose({
        rules: [],
        people: [
          { ...BEN, lastAssignedAt: 5 },
          { ...ANA, lastAssignedAt: 5 },
        ],
      }).ownerId,
    ).toBe('1');
  });

  it('leaves the lead unassigned when nobody is available', () => {
    expect(choose({ at: MIDNIGHT, domainOwner: '1' })).toEqual({ ownerId: undefined, roundRobin: false, reason: 'nobody available' });
    expect(choose({ people: [] })).toEqual({ ownerId: undefined, roundRobin: false, reason: 'nobody available' });
  });
});

describe('company domains', () => {
  it('takes the domain after the last @, in lower case', () => {
    expect(emailDomain('Pat.Lee@Acme.COM')).toBe('acme.com');
    expect(emailDomain('"a@b"@sales.acme.io.')).toBe('sales.acme.io');
    expect(emailDomain('no address')).toBe('');
  });

  it('counts company domains, never free e-mail providers or non-domains', () => {
    expect(isCompanyDomain('acme.com')).toBe(true);
    expect(isCompanyDomain('sales.acme.co.uk')).toBe(true);
    for (const free of [
      'gmail.com',
      'GMAIL.COM',
      'outlook.com',
      'hotmail.co.uk',
      'yahoo.fr',
      'icloud.com',
      'proton.me',
      'aol.com',
      'gmx.de',
    ]) {
      expect(isCompanyDomain(free), free).toBe(false);
    }
    expect(isCompanyDomain('')).toBe(false);
    expect(isCompanyDomain('localhost')).toBe(false);
  });
});

describe('ruleWarnings', () => {
  const people = [
    { id: '1', role: 'sales' as const, email: 'ana@example.com' },
    { id: '2', role: 'sales' as const, email: 'ben@example.com' },
    { id: '5', role: 'viewer' as const, email: 'vic@example.com' },
  ];
  const forms = ['Homepage Simple Lead Form', 'Contact Page Form'];

  it('says why each rule would give leads to nobody, and nothing for a good rule', () => {
    const warnings = ruleWarnings(
      [
        { kind: 'form', value: 'Contact Page Form', ownerId: '1' },
        { kind: 'form', value: 'Contact Form', ownerId: '1' },
        { kind: 'service', value: '  ', ownerId: '1' },
        { kind: 'campaign', value: 'spring', ownerId: '42' },
        { kind: 'campaign', value: 'autumn', ownerId: '5' },
        { kind: 'campaign', value: 'winter', ownerId: undefined },
        { kind: 'service', value: 'Voice Agents', ownerId: '2' },
        { kind: 'service', value: 'voice agents', ownerId: '1' },
        { kind: 'domain', value: '', ownerId: undefined },
      ],
      people,
      forms,
    );
    expect(warnings).toEqual([
      null,
      'No form is called "Contact Form", so no lead ever follows this rule. The forms are: Homepage Simple Lead Form, Contact Page Form.',
      'This rule has no service interest to match, so no lead ever follows it.',
      'The person this rule gives leads to no longer has an account; its leads go to round-robin.',
      'vic@example.com is not in sales, so this rule gives them no leads; its leads go to round-robin.',
      'This rule names nobody to give its leads to; they go to round-robin.',
      null,
      "Rule 7 already catches the same leads, so this one only gets a lead when rule 7's person is not available.",
      null,
    ]);
  });

  it('warns of a rule placed after rules that already catch every form', () => {
    const warnings = ruleWarnings(
      [
        { kind: 'form', value: 'Homepage Simple Lead Form', ownerId: '1' },
        { kind: 'form', value: 'Contact Page Form', ownerId: '2' },
        { kind: 'domain', value: '', ownerId: undefined },
      ],
      people,
      forms,
    );
    expect(warnings).toEqual([
      null,
      null,
      'The rules above already catch the leads of every form, so this one only gets a lead when their people are not available.',
    ]);
  });

  it('has nothing to say about no rules', () => {
    expect(ruleWarnings([], people, forms)).toEqual([]);
  });
});
