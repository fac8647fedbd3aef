import { expect, it } from 'vitest';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import { LEAD_SOURCES } from '../../lead/rules.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { rebuildLead, takeInLead } from './intake.ts';

// A box ticked on a lead judged spam: kept with the lead, and on "Not spam" the lead goes to the CRM
// without a call-back request, since an automated call hours later is not what the visitor agreed to.

const WORDINGS = new Map([['2026-11', 'Example Co may call me now with an automated or artificial voice.']]);
const context = { roiParameters: shippedRoiParameters(), callbackWordings: WORDINGS, userAgentHeader: undefined, refererHeader: undefined };

it('spam with a ticked box keeps it; released from spam, it asks for no call-back', () => {
  const now = Date.now();
  const body = {
    ...validLeadBody('contact', now),
    website: 'https://bot.example',
    callback_requested: 'yes',
    callback_consent_version: '2026-11',
  };
  const intake = takeInLead(body, { ...context, receivedAt: now });
  expect(intake).toMatchObject({ kind: 'accepted', spamReason: expect.any(String), payload: { callback_requested: true } });
  if (intake.kind !== 'accepted') return;

  const rebuilt = rebuildLead({ source: LEAD_SOURCES.contact, receivedAt: now, payload: intake.payload }, shippedRoiParameters());
  expect(rebuilt.kind).toBe('rebuilt');
  if (rebuilt.kind !== 'rebuilt') return;
  expect(rebuilt.payload.callback_requested).toBe(false);
  expect(Object.keys(rebuilt.payload).filter((key) => key.startsWith('callback_consent'))).toEqual([]);
});

it('a spam bot learns nothing from an unknown wording: it gets the answer a person gets', () => {
  const now = Date.now();
  const body = { ...validLeadBody('home', now), website: 'x', callback_requested: 'yes', callback_consent_version: 'nope' };
  expect(takeInLead(body, { ...context, receivedAt: now })).toMatchObject({ kind: 'accepted', spamReason: expect.any(String) });
});
