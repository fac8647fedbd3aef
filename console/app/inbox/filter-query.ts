// The inbox's filter lives in the address's query string, so a link or a reload keeps it. Reading it
// back keeps only values the API accepts: a hand-edited address cannot send a state or a spam choice
// that does not exist.
import { LEAD_SOURCES } from '../../../lead/rules.ts';
import type { DeliveryState, LeadFilter } from '../../api-types.ts';
import { STATE_LABELS } from '../parts/format.tsx';

export const FORMS: readonly string[] = Object.values(LEAD_SOURCES);
export const STATES = Object.keys(STATE_LABELS) as DeliveryState[];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const TEXT_KEYS = ['campaign', 'source', 'q'] as const;

export function filterFromQuery(query: URLSearchParams): LeadFilter {
  const filter: LeadFilter = {};
  const form = query.get('form');
  if (form && FORMS.includes(form)) filter.form = form;
  const state = query.get('state');
  if (state && (STATES as string[]).includes(state)) filter.state = state as DeliveryState;
  const spam = query.get('spam');
  if (spam === 'yes' || spam === 'no') filter.spam = spam;
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
  for (const key of ['q', 'form', 'state', 'spam', 'from', 'to', 'campaign', 'source'] as const) {
    const value = filter[key]?.trim();
    if (value) query.set(key, value);
  }
  return query;
}
