// CRM_LEAD_URL: where a lead's record lives in the CRM, so the console can link each lead to it.
// The setting is an address with `{lead_id}` (the id the lead was sent to the CRM with, for a CRM
// that stores it) or `{email}` (for a CRM that finds contacts by e-mail address), or both; each is
// filled in URL-encoded, so a value can never change where the link points. Only http(s) links are
// ever made: anything else in a link (javascript:, data:) would run in the salesperson's browser.

/** The values a template may name, and where each comes from. */
export const CRM_LEAD_URL_PLACEHOLDERS = ['{lead_id}', '{email}'] as const;

const ANY_PLACEHOLDER = /\{[^{}]*\}/g;

/** The sentence that refuses a template (naming the setting), or undefined when it is usable. */
export function checkCrmLeadUrlTemplate(template: string, name = 'CRM_LEAD_URL'): string | undefined {
  const unknown = (template.match(ANY_PLACEHOLDER) ?? []).filter(
    (found) => !(CRM_LEAD_URL_PLACEHOLDERS as readonly string[]).includes(found),
  );
  if (unknown.length > 0) {
    return `${name} can only be filled in with {lead_id} or {email}; it also names ${[...new Set(unknown)].join(', ')}, got ${JSON.stringify(template)}`;
  }
  if (!CRM_LEAD_URL_PLACEHOLDERS.some((placeholder) => template.includes(placeholder))) {
    return `${name} must contain {lead_id} or {email}, where each lead's own value goes (e.g. https://crm.example.com/contacts?search={email}), got ${JSON.stringify(template)}`;
  }
  // The scheme and host come from the setting itself, never from a lead's value.
  const sample = fill(template, { id: 'lead', email: 'person@example.com' });
  const prefix = template.slice(0, template.search(ANY_PLACEHOLDER));
  if (!isHttpLink(sample) || !/^https?:\/\/[^/?#]+[/?#]/i.test(prefix)) {
    return `${name} must be an http(s) address whose host comes before {lead_id} or {email} (e.g. https://crm.example.com/contacts/{lead_id}), got ${JSON.stringify(template)}`;
  }
  return undefined;
}

/**
 * The lead's CRM link: the template with its values filled in, URL-encoded. Undefined when the lead
 * lacks a value the template needs (no e-mail address) or the result is not an http(s) address.
 */
export function crmLeadUrl(template: string, lead: { readonly id: string; readonly email: string }): string | undefined {
  if (template.includes('{email}') && lead.email.trim() === '') return undefined;
  if (template.includes('{lead_id}') && lead.id === '') return undefined;
  const url = fill(template, lead);
  return isHttpLink(url) ? url : undefined;
}

function fill(template: string, lead: { readonly id: string; readonly email: string }): string {
  return template.replaceAll('{lead_id}', encodeURIComponent(lead.id)).replaceAll('{email}', encodeURIComponent(lead.email.trim()));
}

function isHttpLink(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const { protocol, hostname } = new URL(raw);
  return (protocol === 'https:' || protocol === 'http:') && hostname !== '';
}
