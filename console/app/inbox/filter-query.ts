// The inbox's filter lives in the address's query string, so a link or a reload keeps it. Reading it
// back keeps only values the API accepts: a hand-edited address cannot send a status that does not
// exist. Spam is not among them: it has a view of its own, and the inbox never shows it.
import { LEAD_SOURCES } from '../../../lead/rules.ts';
import { LEAD_STATUSES, type LeadFilter, type LeadStatus } from '../../api-types.ts';

export const FORMS: readonly string[] = Object.values(LEAD_SOURCES);
/** The statuses the inbox filters by: every one but spam. */
export const STATES: readonly LeadStatus[] = LEAD_STATUSES.filter((status) => status !== 'spam');
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const TEXT_KEYS = ['campaign', 'source', 'q'] as const;

export function filterFromQuery(query: URLSearchParams): LeadFilter {
  const filter: LeadFilter = {};
  const form = query.get('form');
  if (form && FORMS.includes(form)) filter.form = form;
  const state = STATES.find((status) => status === query.get('state'));
  if (state) filter.state = state;
  for (const key of ['from', 'to'] as const) {
    const day = query.get(key);
    if (day && DAY.test(day)) filter[key] = day;
  }
  for (const key of TEXT_KEYS) {
    const text = query.get(key)?.trim();
    if (text) filter[key] = text;
  }
  return filter;
}

/** The filter as the address's query and the API's: keys in one order, empty values left out. */
export function queryFromFilter(filter: LeadFilter): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of ['q', 'form', 'state', 'from', 'to', 'campaign', 'source'] as const) {
    const value = filter[key]?.trim();
    if (value) query.set(key, value);
  }
  return query;
}

/** What the inbox asks the API for: the filter, never spam. */
export function inboxQuery(filter: LeadFilter): LeadFilter {
  return { ...filter, spam: 'no' };
}
