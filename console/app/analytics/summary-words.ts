// The summary's words: what each key figure, filter and metric is called, and a figure's change
// against the previous period as a person reads it ("▲ 25% vs previous 30 days", "new", "no change").
import {
  FORM_NAMES,
  type AnalyticsFilter,
  type AnalyticsFilterKey,
  type KeyFigure,
  type KeyFigureName,
  type SeriesMetric,
} from '../../api-types.ts';
import type { LeadFormId } from '../../../lead/rules.ts';
import { formatNumber, formatPercent } from '../parts/format.tsx';

export const FIGURE_NAMES: Readonly<Record<KeyFigureName, string>> = {
  visitors: 'Visitors',
  accepted: 'Leads accepted',
  delivered: 'Leads the CRM took',
  booked: 'Meetings booked',
  visitToLead: 'Visit-to-lead rate',
};

export const METRIC_NAMES: Readonly<Record<SeriesMetric, string>> = {
  visitors: 'Visitors',
  accepted: 'Leads accepted',
  delivered: 'Leads the CRM took',
  booked: 'Meetings booked',
};

export const FILTER_NAMES: Readonly<Record<AnalyticsFilterKey, string>> = {
  campaign: 'Campaign',
  source: 'Source',
  page: 'Entry page',
  form: 'Form',
};

/** A filter's value as people read it: '' is "no campaign", "direct" or "unknown"; a form by its name. */
export function filterValueName(key: AnalyticsFilterKey, value: string): string {
  if (key === 'form') return Object.hasOwn(FORM_NAMES, value) ? FORM_NAMES[value as LeadFormId] : value;
  if (value !== '') return value;
  return key === 'campaign' ? '(no campaign)' : key === 'source' ? '(direct)' : '(unknown)';
}

/** The active filters, in the order the screen lists them. */
export function activeFilters(filter: AnalyticsFilter): { key: AnalyticsFilterKey; value: string }[] {
  return (Object.keys(FILTER_NAMES) as AnalyticsFilterKey[]).flatMap((key) => {
    const value = filter[key];
    return value === undefined ? [] : [{ key, value }];
  });
}

/** A figure's value: a count, or the visit-to-lead rate as a percentage ("—" without visitors). */
export function figureValue(figure: Pick<KeyFigure, 'name' | 'value'>): string {
  if (figure.value === null) return '—';
  return figure.name === 'visitToLead' ? formatPercent(figure.value) : formatNumber(figure.value);
}

/**
 * The change against the previous period in words: "▲ 25% vs previous 30 days", "▼ 10% vs previous
 * 7 days", "new" (nothing before, something now), "no change", or "nothing to compare" (no rate then
 * or now). A change smaller than half a percent reads "less than 1%".
 */
export function changeWords(figure: KeyFigure, days: number): string {
  const { value, previous } = figure;
  if (value === null || previous === null)
    return value === null && previous === null ? 'nothing to compare' : value === null ? 'none now' : 'new';
  if (value === previous) return 'no change';
  if (previous === 0) return 'new';
  const change = (value - previous) / previous;
  const percent = Math.round(Math.abs(change) * 100);
  const size = percent === 0 ? 'less than 1%' : `${formatNumber(percent)}%`;
  return `${change > 0 ? '▲' : '▼'} ${size} vs previous ${days === 1 ? 'day' : `${formatNumber(days)} days`}`;
}
