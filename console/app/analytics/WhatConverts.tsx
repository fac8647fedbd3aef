// "What converts": campaigns (with their source, in the same cell so a phone has room for the
// numbers) and entry pages in one table, ranked by leads the
// CRM took, then meetings booked. Rows with nothing are not sent; the first ten are shown, the rest
// one click away. Every campaign, source and page in it filters the whole screen when clicked.
import { useState } from 'react';
import type { AnalyticsFilterKey, AnalyticsSummary } from '../../api-types.ts';
import { formatNumber } from '../parts/format.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { FilterButton } from './FilterChips.tsx';

/** The number columns; on a phone each number is shown under its row's name with this label. */
const COLUMNS = ['Visitors', 'Leads accepted', 'Leads the CRM took', 'Meetings booked'] as const;

/** Rows shown before "Show all". */
export const CONVERSIONS_SHOWN = 10;

export function WhatConverts({
  summary,
  onFilter,
}: {
  summary: AnalyticsSummary;
  onFilter: (key: AnalyticsFilterKey, value: string) => void;
}) {
  const [all, setAll] = useState(false);
  const rows = summary.conversions;
  const shown = all ? rows : rows.slice(0, CONVERSIONS_SHOWN);
  return (
    <section className="panel" aria-labelledby="analytics-converts">
      <h2 id="analytics-converts">What converts</h2>
      {rows.length === 0 ? (
        <p className="empty">No visits or leads counted in this range.</p>
      ) : (
        <>
          <p>Campaigns and entry pages, most leads the CRM took first, then most meetings booked. Click a name to see only its numbers.</p>
          <div className="conversions">
            <ScrollingTable caption="What converts: campaigns and entry pages, most leads the CRM took first">
              <thead>
                <tr>
                  <th scope="col">Campaign (and source) or entry page</th>
                  <th scope="col" className="number">
                    Visitors
                  </th>
                  <th scope="col" className="number">
                    Leads accepted
                  </th>
                  <th scope="col" className="number">
                    Leads the CRM took
                  </th>
                  <th scope="col" className="number">
                    Meetings booked
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr key={`${row.kind} ${row.key} ${row.source}`}>
                    <th scope="row">
                      <span className="conversion-kind">{row.kind === 'campaign' ? 'Campaign' : 'Entry page'}</span>{' '}
                      <FilterButton filterKey={row.kind === 'campaign' ? 'campaign' : 'page'} value={row.key} onFilter={onFilter} />
                      {row.kind === 'campaign' ? (
                        <span className="conversion-source">
                          {' from '}
                          <FilterButton filterKey="source" value={row.source} onFilter={onFilter} />
                        </span>
                      ) : null}
                    </th>
                    {[row.visitors, row.accepted, row.delivered, row.booked].map((value, index) => (
                      <td key={index} className="number" data-label={COLUMNS[index]}>
                        {formatNumber(value)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
          </div>
          {rows.length > CONVERSIONS_SHOWN ? (
            <button type="button" className="button button-quiet" onClick={() => setAll(!all)}>
              {all ? `Show the first ${CONVERSIONS_SHOWN} only` : `Show all ${formatNumber(rows.length)} rows`}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
