// Analytics: the visits the server counted without cookies, for a range of UTC days kept in the
// address (so a link or a reload shows the same reports): visitors and page views per day, pages,
// referring sites, campaigns, entry pages, and each form from page view to the CRM. Each report is
// a table (a chart beside it where one helps), with its CSV download for the same days.
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AnalyticsExport, AnalyticsReport, DayRange } from '../../api-types.ts';
import { analyticsExportUrl, messageOf } from '../api.ts';
import { formatNumber } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { useSession } from '../session.tsx';
import { DayChart } from './DayChart.tsx';
import { DownloadLink } from './DownloadLink.tsx';
import { FunnelSection } from './FunnelSection.tsx';
import { queryFromReports, reportsFromQuery } from './range-query.ts';
import { RangeForm } from './RangeForm.tsx';
import { VitalsSection } from './VitalsSection.tsx';

const NO_REFERRER = 'No referring site (typed, bookmarked, or the browser kept it back)';
const NONE = '(none)';

export function AnalyticsScreen() {
  const { api } = useSession();
  const [query, setQuery] = useSearchParams();
  const asked = reportsFromQuery(query);
  const key = queryFromReports(asked).toString();
  const [shown, setShown] = useState<{ key: string; report: AnalyticsReport } | null>(null);
  const [error, setError] = useState('');

  // Other days or another split: the reports shown stay until the new ones come (so the control
  // just used keeps its place and its focus), marked as loading.
  useEffect(() => {
    let current = true;
    setError('');
    api.analytics(reportsFromQuery(new URLSearchParams(key))).then(
      (report) => current && setShown({ key, report }),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, key]);

  const report = error ? null : (shown?.report ?? null);
  const loading = !error && shown?.key !== key;
  const range: Partial<DayRange> = { from: asked.from ?? report?.range.from, to: asked.to ?? report?.range.to };

  return (
    <>
      <h1>Analytics</h1>
      <HowCounted />
      <RangeForm range={range} now={Date.now()} onApply={(next) => setQuery(queryFromReports({ ...next, split: asked.split }))} />
      {loading ? <p role="status">Loading the reports…</p> : null}
      <ErrorMessage>{error}</ErrorMessage>
      {report ? (
        <div aria-busy={loading}>
          <Reports report={report} onSplit={(split) => setQuery(queryFromReports({ ...asked, split }))} />
        </div>
      ) : null}
      {report ? <VitalsSection range={report.range} /> : null}
    </>
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

function Reports({ report, onSplit }: { report: AnalyticsReport; onSplit: Parameters<typeof FunnelSection>[0]['onSplit'] }) {
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
        <FunnelSection report={report} onSplit={onSplit} />
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
                <th scope="row">{referrer.host || NO_REFERRER}</th>
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
                <th scope="row">{campaign.source || NONE}</th>
                <td>{campaign.medium || NONE}</td>
                <td>{campaign.name || NONE}</td>
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
                <th scope="row">{entry.path}</th>
                <Numbers values={[entry.visitors]} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </ReportSection>

      <FunnelSection report={report} onSplit={onSplit} />
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
