// Forms: from page view to a meeting. Per form, the visits that reached each of the first three
// steps, the leads at the last three (every lead of a counted visitor), and each step's share of the page views, as horizontal bars with their table; then the funnel split by campaign, source or
// entry page, one row per form and value, with how many page views became leads and reached the CRM.
import {
  FORM_NAMES,
  FUNNEL_STEP_NAMES,
  FUNNEL_STEP_ORDER,
  SPLIT_EMPTY_NAMES,
  type AnalyticsFilterKey,
  type AnalyticsReport,
  type AnalyticsSplit,
  type FunnelRow,
} from '../../api-types.ts';
import { analyticsExportUrl } from '../api.ts';
import { BarChart } from '../health/BarChart.tsx';
import { Field } from '../parts/Field.tsx';
import { formatNumber, formatPercent } from '../parts/format.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { DownloadLink } from './DownloadLink.tsx';
import { FilterButton } from './FilterChips.tsx';

export const SPLIT_LABELS: Readonly<Record<AnalyticsSplit, string>> = {
  none: 'None',
  campaign: 'Campaign',
  source: 'Source',
  entry: 'Entry page',
};

/** A step's share of the form's page views, or undefined when the form was never viewed. */
function shareOf(row: FunnelRow, count: number): number | undefined {
  return row.viewed === 0 ? undefined : count / row.viewed;
}

export function FunnelSection({
  report,
  onSplit,
  onFilter,
}: {
  report: AnalyticsReport;
  onSplit: (split: AnalyticsSplit) => void;
  onFilter: (key: AnalyticsFilterKey, value: string) => void;
}) {
  const { range, split } = report;
  return (
    <section className="panel" aria-labelledby="analytics-funnel">
      <h2 id="analytics-funnel">Forms: from page view to a meeting</h2>
      <p>
        Page view, form started and submitted count visits: a visitor who saw the form, started filling it in, and sent it. Lead accepted,
        delivered to the CRM and meeting booked count leads: each lead the server accepted (stored and not spam, or marked “Not spam”), each
        lead the CRM took, and each lead with a meeting its booking page confirmed and that is not cancelled, under the campaign and source
        the lead itself carried. Leads from visitors who asked not to be counted (Do Not Track or Global Privacy Control) and from robots
        are in the inbox but not here. The share is of the page views that showed the form.
      </p>
      {report.funnel.length === 0 ? <p className="empty">No form was shown in this range.</p> : null}
      {report.funnel.map((row) => (
        <FormFunnel key={row.form} row={row} />
      ))}
      {report.funnel.length > 0 ? <DownloadLink href={analyticsExportUrl('funnel', range)} what="the funnel of every form" /> : null}

      <h3 id="analytics-split">Compare the forms by where visits came from</h3>
      <Field label="Split by">
        {(control) => (
          <select {...control} name="split" value={split} onChange={(event) => onSplit(event.target.value as AnalyticsSplit)}>
            {Object.entries(SPLIT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <SplitTable rows={report.splitFunnel} split={split} onFilter={onFilter} />
      <DownloadLink href={analyticsExportUrl('funnel', range, split)} what={`the funnel split by ${SPLIT_LABELS[split].toLowerCase()}`} />
    </section>
  );
}

function FormFunnel({ row }: { row: FunnelRow }) {
  const name = FORM_NAMES[row.form];
  return (
    <>
      <h3>{name}</h3>
      <div className="chart-with-table">
        <BarChart
          title={`${name}: visits at the first three steps, leads at the last three`}
          series={[]}
          rows={FUNNEL_STEP_ORDER.map((step) => ({ label: FUNNEL_STEP_NAMES[step], values: [row[step]] }))}
        />
        <ScrollingTable caption={`${name}: visits at the first three steps, leads at the last three, and their share of the page views`}>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" className="number">
                Count
              </th>
              <th scope="col" className="number">
                Of page views
              </th>
            </tr>
          </thead>
          <tbody>
            {FUNNEL_STEP_ORDER.map((step) => (
              <tr key={step}>
                <th scope="row">{FUNNEL_STEP_NAMES[step]}</th>
                <td className="number">{formatNumber(row[step])}</td>
                <td className="number">{formatPercent(shareOf(row, row[step]))}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </div>
    </>
  );
}

/** The filter a split's value sets when clicked. */
const SPLIT_FILTERS = { campaign: 'campaign', source: 'source', entry: 'page' } as const satisfies Record<
  Exclude<AnalyticsSplit, 'none'>,
  AnalyticsFilterKey
>;

function SplitTable({
  rows,
  split,
  onFilter,
}: {
  rows: readonly FunnelRow[];
  split: AnalyticsSplit;
  onFilter: (key: AnalyticsFilterKey, value: string) => void;
}) {
  if (rows.length === 0) return <p className="empty">No form was shown in this range.</p>;
  const caption =
    split === 'none'
      ? 'Each form from page view to the CRM'
      : `Each form from page view to the CRM, by ${SPLIT_LABELS[split].toLowerCase()}`;
  return (
    <ScrollingTable caption={caption}>
      <thead>
        <tr>
          <th scope="col">Form</th>
          {split === 'none' ? null : <th scope="col">{SPLIT_LABELS[split]}</th>}
          {FUNNEL_STEP_ORDER.map((step) => (
            <th key={step} scope="col" className="number">
              {FUNNEL_STEP_NAMES[step]}
            </th>
          ))}
          <th scope="col" className="number">
            Accepted ÷ viewed
          </th>
          <th scope="col" className="number">
            Delivered ÷ viewed
          </th>
          <th scope="col" className="number">
            Booked ÷ viewed
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.form} ${row.key}`}>
            <th scope="row">
              <FilterButton filterKey="form" value={row.form} onFilter={onFilter} />
            </th>
            {split === 'none' ? null : (
              <td>
                <FilterButton filterKey={SPLIT_FILTERS[split]} value={row.key} onFilter={onFilter}>
                  {row.key || SPLIT_EMPTY_NAMES[split]}
                </FilterButton>
              </td>
            )}
            {FUNNEL_STEP_ORDER.map((step) => (
              <td key={step} className="number">
                {formatNumber(row[step])}
              </td>
            ))}
            <td className="number">{formatPercent(shareOf(row, row.accepted))}</td>
            <td className="number">{formatPercent(shareOf(row, row.delivered))}</td>
            <td className="number">{formatPercent(shareOf(row, row.booked))}</td>
          </tr>
        ))}
      </tbody>
    </ScrollingTable>
  );
}
