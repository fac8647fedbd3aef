import { describe, expect, it } from 'vitest';
import { checkCrmLeadUrlTemplate, crmLeadUrl } from './crm-lead-url.ts';

// A lead's link to its CRM record: filled from the setting, encoded, and only ever http(s).

describe('crmLeadUrl', () => {
  const lead = { id: 'c0ffee00-1111-4222-8333-444455556666', email: 'ana+sales@example.com' };

  it('fills in the lead id and the e-mail address, URL-encoded', () => {
    expect(crmLeadUrl('https://crm.example.com/contacts/{lead_id}', lead)).toBe(
      'https://crm.example.com/contacts/c0ffee00-1111-4222-8333-444455556666',
    );
    expect(crmLeadUrl('https://crm.example.com/search?q={email}&from={lead_id}', lead)).toBe(
      'https://crm.example.com/search?q=ana%2Bsales%40example.com&from=c0ffee00-1111-4222-8333-444455556666',
    );
  });

  it('keeps a hostile value inside its place in the address', () => {
    const hostile = { id: '../../admin?x=1#', email: 'a@b.c/../../x?y=#z' };
    const url = new URL(crmLeadUrl('https://crm.example.com/contacts/{lead_id}?email={email}', hostile) ?? '');
    expect(url.host).toBe('crm.example.com');
    expect(decodeURIComponent(url.pathname.split('/').at(-1) ?? '')).toBe(hostile.id);
    expect(url.searchParams.get('email')).toBe(hostile.email);
  });

  it('makes no link for a lead without the value the address needs', () => {
    expect(crmLeadUrl('https://crm.example.com/search?q={email}', { id: 'lead-1', email: '' })).toBeUndefined();
    expect(crmLeadUrl('https://crm.example.com/contacts/{lead_id}', { id: 'lead-1', email: '' })).toBe(
      'https://crm.example.com/contacts/lead-1',
    );
  });

  it('never makes a link that is not http(s)', () => {
    expect(crmLeadUrl('javascript:alert({lead_id})', lead)).toBeUndefined();
    expect(crmLeadUrl('data:text/html,{email}', lead)).toBeUndefined();
  });
});

describe('checkCrmLeadUrlTemplate', () => {
  it.each([
    'https://crm.example.com/contacts/{lead_id}',
    'http://localhost:8080/c?email={email}',
    'https://app.example-crm.com/v2/location/abc/contacts?lead={lead_id}&email={email}',
  ])('accepts %s', (template) => {
    expect(checkCrmLeadUrlTemplate(template)).toBeUndefined();
  });

  it.each([
    ['https://crm.example.com/contacts', 'must contain {lead_id} or {email}'],
    ['https://crm.example.com/contacts/{contact_id}', 'it also names {contact_id}'],
    ['ftp://crm.example.com/{lead_id}', 'must be an http(s) address'],
    ['{email}', 'must be an http(s) address'],
    ['https://crm.example.com{lead_id}', 'must be an http(s) address whose host comes before'],
  ])('refuses %s, naming the setting', (template, problem) => {
    const error = checkCrmLeadUrlTemplate(template);
    expect(error).toContain('CRM_LEAD_URL');
    expect(error).toContain(problem);
  });
});
