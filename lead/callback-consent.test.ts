import { describe, expect, it } from 'vitest';
import { CALLBACK_UNKNOWN_VERSION_MESSAGE, describeCallback, readCallbackRequest } from './callback-consent.ts';

const WORDINGS = new Map([
  ['2026-11', 'Premier AI Consulting may call me now with an automated or artificial voice. Consent is not a condition of purchase.'],
  ['2026-01', 'An older wording, still known to the relay.'],
]);

describe('readCallbackRequest', () => {
  it('an unticked box (absent, empty, "no") asks for no call-back, whatever version is named', () => {
    for (const value of [undefined, '', 'no', false, 'false']) {
      expect(readCallbackRequest({ callback_requested: value, callback_consent_version: '2026-11' }, WORDINGS)).toEqual({ kind: 'none' });
    }
  });

  it('a ticked box takes the text of the version it names from the known wordings', () => {
    for (const value of [true, 'yes', 'on', 'true']) {
      expect(readCallbackRequest({ callback_requested: value, callback_consent_version: '2026-01' }, WORDINGS)).toEqual({
        kind: 'requested',
        consent: { version: '2026-01', text: 'An older wording, still known to the relay.' },
      });
    }
  });

  it('never takes a text sent with the submission', () => {
    const request = readCallbackRequest(
      { callback_requested: 'yes', callback_consent_version: '2026-11', callback_consent_text: 'I agree to nothing.' },
      WORDINGS,
    );
    expect(request).toMatchObject({ kind: 'requested', consent: { text: WORDINGS.get('2026-11') } });
  });

  it('a ticked box with an unknown or missing version is refused on the version field', () => {
    for (const version of ['2099-01', undefined, 7, '']) {
      expect(readCallbackRequest({ callback_requested: 'yes', callback_consent_version: version }, WORDINGS)).toEqual({
        kind: 'invalid',
        fields: { callback_consent_version: CALLBACK_UNKNOWN_VERSION_MESSAGE },
      });
    }
  });

  it('does not mistake an inherited property for a version', () => {
    expect(readCallbackRequest({ callback_requested: 'yes', callback_consent_version: 'constructor' }, WORDINGS).kind).toBe('invalid');
  });
});

describe('describeCallback', () => {
  const context = { now: new Date('2026-11-28T10:00:00.000Z'), pageUrl: 'https://www.example.com/contact' };

  it('without a ticked box: callback_requested false and nothing else', () => {
    expect(describeCallback(undefined, context)).toEqual({ callback_requested: false });
  });

  it('with a ticked box: the words, the time, the version and the page', () => {
    expect(describeCallback({ version: '2026-11', text: 'Words.' }, context)).toEqual({
      callback_requested: true,
      callback_consent_text: 'Words.',
      callback_consent_at: '2026-11-28T10:00:00.000Z',
      callback_consent_version: '2026-11',
      callback_consent_page: 'https://www.example.com/contact',
    });
  });
});
