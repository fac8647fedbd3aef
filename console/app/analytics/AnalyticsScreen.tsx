// Analytics: what converts, at a glance. The screen opens on the key figures of a range of UTC days
// against the previous period of the same length, then "What converts" (campaigns and entry pages
// ranked by leads the CRM took, then meetings), then one chart over time with a choice of metric.
// A click on any campaign, source, page or form filters every number on the screen; the range, the
// filters and the metric are kept in the address, so a link, a reload and back and forward show the
// same screen. Behind a disclosure: the forms' funnel and the detail tables (visitors and page views
// per day, pages, referring sites, campaigns, entry pages), each with its CSV download; they count
// every visit, so they are shown only while no filter is set.
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AnalyticsExport, AnalyticsFilterKey, AnalyticsReport, AnalyticsSummary, DayRange } from '../../api-types.ts';
import { analyticsExportUrl, messageOf } from '../api.ts';
import { formatNumber } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { useSession } from '../session.tsx';
import { DayChart } from './DayChart.tsx';
import { DownloadLink } from './DownloadLink.tsx';
import { FunnelSection } from './FunnelSection.tsx';
import { FilterButton, FilterChips } from './FilterChips.tsx';
import { KeyFigures } from './KeyFigures.tsx';
import { queryFromReports, reportsFromQuery, type AskedReports } from './range-query.ts';
import { RangeForm } from './RangeForm.tsx';
import { SeriesChart } from './SeriesChart.tsx';
import { activeFilters } from './summary-words.ts';
import { WhatConverts } from './WhatConverts.tsx';
import { VitalsSection } from './VitalsSection.tsx';

const NO_REFERRER = 'No referring site (typed, bookmarked, or the browser kept it back)';
const NONE = '(none)';

export function AnalyticsScreen() {
  const { api } = useSession();
  const [query, setQuery] = useSearchParams();
  const asked = reportsFromQuery(query);
  const filter = asked.filter ?? {};
  const filtered = activeFilters(filter).length > 0;
  const summaryKey = queryFromReports({ from: asked.from, to: asked.to, split: 'none', filter }).toString();
  const detailKey = queryFromReports({ from: asked.from, to: asked.to, split: asked.split }).toString();
  const [summary, setSummary] = useState<{ key: string; summary: AnalyticsSummary } | null>(null);
  const [shown, setShown] = useState<{ key: string; report: AnalyticsReport } | null>(null);
  const [error, setError] = useState('');

  // Other days or other filters: what is shown stays until the new figures come (so the control just
  // used keeps its place and its focus), marked as loading.
  useEffect(() => {
    let current = true;
    setError('');
    const asked = reportsFromQuery(new URLSearchParams(summaryKey));
    api.analyticsSummary(asked, asked.filter ?? {}).then(
      (answer) => current && setSummary({ key: summaryKey, summary: answer }),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, summaryKey]);

  // The detail tables count every visit of the range: they are read only while no filter is set.
  useEffect(() => {
    if (filtered) return undefined;
    let current = true;
    const { from, to, split } = reportsFromQuery(new URLSearchParams(detailKey));
    api.analytics({ from, to, split }).then(
      (report) => current && setShown({ key: detailKey, report }),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, detailKey, filtered]);

  const shownSummary = error ? null : (summary?.summary ?? null);
  const report = error || filtered ? null : (shown?.report ?? null);
  const loading = !error && (summary?.key !== summaryKey || (!filtered && shown?.key !== detailKey));
  const range: Partial<DayRange> = { from: asked.from ?? shownSummary?.range.from, to: asked.to ?? shownSummary?.range.to };
  const go = (next: AskedReports) => setQuery(queryFromReports(next));
  const onFilter = (key: AnalyticsFilterKey, value: string) => go({ ...asked, filter: { ...filter, [key]: value } });
  const onRemove = (keys: readonly AnalyticsFilterKey[]) =>
    go({ ...asked, filter: Object.fromEntries(Object.entries(filter).filter(([key]) => !keys.includes(key as AnalyticsFilterKey))) });

  return (
    <>
      <h1>Analytics</h1>
      <RangeForm range={range} now={Date.now()} onApply={(next) => go({ ...asked, ...next })} />
      <FilterChips filter={filter} onRemove={onRemove} />
      {loading ? <p role="status">Loading the figures…</p> : null}
      <ErrorMessage>{error}</ErrorMessage>
      {shownSummary ? (
        <div aria-busy={loading}>
          <KeyFigures summary={shownSummary} />
          <CountedFrom summary={shownSummary} />
          <WhatConverts summary={shownSummary} onFilter={onFilter} />
          <SeriesChart summary={shownSummary} metric={asked.metric ?? 'visitors'} onMetric={(metric) => go({ ...asked, metric })} />
          <details className="panel details">
            <summary>Forms funnel and detail tables</summary>
            {filtered ? (
              <p className="empty">
                The detail tables count every visit of the range, so they are not shown while a filter is set. Remove the filters to see
                them.
              </p>
            ) : (
              <>
                <HowCounted />
                {report ? <Reports report={report} onSplit={(split) => go({ ...asked, split })} onFilter={onFilter} /> : null}
              </>
            )}
          </details>
          {/* Field speed per page: a page filter shows that page's alone. */}
          <VitalsSection range={shownSummary.range} {...(filter.page !== undefined ? { page: filter.page } : {})} />
        </div>
      ) : null}
    </>
  );
}

/** Days before the summary's roll-ups existed are in the detail tables only: said plainly, not shown as zeros. */
function CountedFrom({ summary }: { summary: AnalyticsSummary }) {
  if (summary.countedFrom === null || summary.previousRange.from >= summary.countedFrom) return null;
  return (
    <p className="note">
      The key figures, meetings, what converts, the chart and the filters count from {summary.countedFrom}; earlier days are in the detail
      tables only, so a figure or comparison that reaches before that day is lower than what happened.
    </p>
  );
}

function HowCounted() {
  return (
    <section className="panel" aria-labelledby="analytics-counted">
      <h2 id="analytics-counted">How visits are counted</h2>
      <ul className="plain-list">
        <li>
          A visitor here is one browser on one day (UTC). The server counts visits without cookies, under a code made from the browser that
          changes every day, so the same person on five days counts as five visitors.
        </li>
        <li>
          People whose browser asks not to be tracked (Do Not Track or Global Privacy Control) are not counted, and neither are robots.
        </li>
        <li>
          “Lead accepted” and “Delivered to the CRM” are counted by the server itself when it stores a lead and when the CRM takes it, not
          by the visitor's browser.
        </li>
      </ul>
    </section>
  );
}

function Reports({
  report,
  onSplit,
  onFilter,
}: {
  report: AnalyticsReport;
  onSplit: Parameters<typeof FunnelSection>[0]['onSplit'];
  onFilter: (key: AnalyticsFilterKey, value: string) => void;
}) {
  const { range } = report;
  const download = (what: AnalyticsExport, words: string) => <DownloadLink href={analyticsExportUrl(what, range)} what={words} />;
  // Leads are counted by the server when it stores them, not by the browser's beacons: a range with
  // no visit counted (forms sent without JavaScript, or beacons a blocker stopped) can still hold
  // leads, so their funnel stays in view rather than a sentence saying there is nothing.
  if (report.days.every((day) => day.visitors === 0 && day.pageviews === 0)) {
    if (!report.funnel.some((row) => row.accepted > 0 || row.delivered > 0))
      return <p className="empty">No visits or leads counted in this range.</p>;
    return (
      <>
        <p className="empty">No visits counted in this range; the leads it holds are counted below.</p>
        <FunnelSection report={report} onSplit={onSplit} onFilter={onFilter} />
      </>
    );
  }
  return (
    <>
      <section className="panel" aria-labelledby="analytics-days">
        <h2 id="analytics-days">Visitors and page views</h2>
        <div className="chart-with-table">
          <DayChart days={report.days} />
          <div>
            <ScrollingTable caption={`Visitors and page views per day (UTC), ${range.from} to ${range.to}`}>
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <NumberHeaders names={['Visitors', 'Page views', 'Booking clicks']} />
                </tr>
              </thead>
              <tbody>
                {report.days.map((day) => (
                  <tr key={day.day}>
                    <th scope="row">{day.day}</th>
                    <Numbers values={[day.visitors, day.pageviews, day.bookingClicks]} />
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
            {download('days', 'visitors and page views per day')}
          </div>
        </div>
      </section>

      <ReportSection id="analytics-pages" title="Pages" empty={report.pages.length === 0} download={download('pages', 'the pages')}>
        <ScrollingTable caption="Pages, most visitors first">
          <thead>
            <tr>
              <th scope="col">Page</th>
              <NumberHeaders names={['Visitors', 'Page views', 'Booking clicks']} />
            </tr>
          </thead>
          <tbody>
            {report.pages.map((page) => (
              <tr key={page.path}>
                <th scope="row">{page.path}</th>
                <Numbers values={[page.visitors, page.pageviews, page.bookingClicks]} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </ReportSection>

      <ReportSection
        id="analytics-referrers"
        title="Referrers"
        empty={report.referrers.length === 0}
        download={download('referrers', 'the referring sites')}
      >
        <ScrollingTable caption="Referring sites, most visitors first">
          <thead>
            <tr>
              <th scope="col">Referring site</th>
              <NumberHeaders names={['Visitors']} />
            </tr>
          </thead>
          <tbody>
            {report.referrers.map((referrer) => (
              <tr key={referrer.host}>
                <th scope="row">
                  <FilterButton filterKey="source" value={referrer.host} onFilter={onFilter}>
                    {referrer.host || NO_REFERRER}
                  </FilterButton>
                </th>
                <Numbers values={[referrer.visitors]} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </ReportSection>

      <ReportSection
        id="analytics-campaigns"
        title="Campaigns"
        empty={report.campaigns.length === 0}
        download={download('campaigns', 'the campaigns')}
      >
        <ScrollingTable caption="Campaigns (the utm_ words of the link a visit came by), most visitors first">
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Medium</th>
              <th scope="col">Campaign</th>
              <th scope="col">Ad click</th>
              <NumberHeaders names={['Visitors']} />
            </tr>
          </thead>
          <tbody>
            {report.campaigns.map((campaign) => (
              <tr key={`${campaign.source} ${campaign.medium} ${campaign.name} ${campaign.click}`}>
                <th scope="row">
                  <FilterButton filterKey="source" value={campaign.source} onFilter={onFilter}>
                    {campaign.source || NONE}
                  </FilterButton>
                </th>
                <td>{campaign.medium || NONE}</td>
                <td>
                  <FilterButton filterKey="campaign" value={campaign.name} onFilter={onFilter}>
                    {campaign.name || NONE}
                  </FilterButton>
                </td>
                <td>{campaign.click || 'No'}</td>
                <Numbers values={[campaign.visitors]} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </ReportSection>

      <ReportSection
        id="analytics-entries"
        title="Entry pages"
        empty={report.entryPages.length === 0}
        download={download('entry-pages', 'the entry pages')}
      >
        <ScrollingTable caption="Entry pages (the first page of a visit), most visitors first">
          <thead>
            <tr>
              <th scope="col">Entry page</th>
              <NumberHeaders names={['Visitors']} />
            </tr>
          </thead>
          <tbody>
            {report.entryPages.map((entry) => (
              <tr key={entry.path}>
                <th scope="row">
                  <FilterButton filterKey="page" value={entry.path} onFilter={onFilter} />
                </th>
                <Numbers values={[entry.visitors]} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </ReportSection>

      <FunnelSection report={report} onSplit={onSplit} onFilter={onFilter} />
    </>
  );
}

function ReportSection({
  id,
  title,
  empty,
  download,
  children,
}: {
  id: string;
  title: string;
  empty: boolean;
  download: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {empty ? (
        <p className="empty">None in this range.</p>
      ) : (
        <>
          {children}
          {download}
        </>
      )}
    </section>
  );
}

function NumberHeaders({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name) => (
        <th key={name} scope="col" className="number">
          {name}
        </th>
      ))}
    </>
  );
}

function Numbers({ values }: { values: readonly number[] }) {
  return (
    <>
      {values.map((value, index) => (
        <td key={index} className="number">
          {formatNumber(value)}
        </td>
      ))}
    </>
  );
}
