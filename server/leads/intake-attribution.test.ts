import { expect, it } from 'vitest';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { takeInLead } from './intake.ts';

// A lead's campaign words are cleaned as a beacon's are (lead/attribution.ts): the inbox, the CRM and
// the visit reports hold the same word, and none of them shows a word a bidirectional control turned
// around.

it('stores and forwards attribution without control, bidirectional or invisible characters', () => {
  const intake = takeInLead(
    {
      ...validLeadBody('home'),
      utm_campaign: 'roi\u202E4q-\u202C',
      utm_source: '\u2066news\u2069letter',
      utm_medium: 'e\u0000mail\u200B',
      utm_term: '\u2067\u2069',
      first_referrer: 'https://news.example.org/\u202Egpj.exe',
    },
    {
      receivedAt: Date.now(),
      roiParameters: shippedRoiParameters(),
      callbackWordings: new Map(),
      userAgentHeader: undefined,
      refererHeader: undefined,
    },
  );
  expect(intake.kind).toBe('accepted');
  if (intake.kind !== 'accepted') return;
  expect(intake.payload).toMatchObject({
    utm_campaign: 'roi4q-',
    utm_source: 'newsletter',
    utm_medium: 'email',
    first_referrer: 'https://news.example.org/gpj.exe',
  });
  expect(intake.payload).not.toHaveProperty('utm_term');
});
