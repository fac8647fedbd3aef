// Speed to lead: how long leads waited for their first human touch (a logged call or e-mail, a
// booked meeting, a status beyond new) over a range of UTC days kept in the address: the key
// figures, then the same figures by owner, form and campaign, each table with its CSV download.
// The times count business hours only, and the screen says so, since a lead sent at night was
// promised an answer the next working day.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { DayRange, SpeedFigures, SpeedGroup, SpeedReport } from '../../api-types.ts';
import { messageOf, speedExportUrl } from '../api.ts';
import { DownloadLink } from '../analytics/DownloadLink.tsx';
import { queryFromReports, reportsFromQuery } from '../analytics/range-query.ts';
import { RangeForm } from '../analytics/RangeForm.tsx';
import { formatMinutes, formatNumber, formatPercent, plural } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { useSession } from '../session.tsx';

const NOT_YET = 'n/a';

const minutesOf = (minutes: number | null) => (minutes === null ? NOT_YET : formatMinutes(minutes));
/** A share of the range's leads, n/a when the range holds none. */
const shareOf = (share: number, figures: SpeedFigures) => (figures.leads === 0 ? NOT_YET : formatPercent(share));

export function SpeedScreen() {
  const { api } = useSession();
  const [query, setQuery] = useSearchParams();
  const asked = reportsFromQuery(query);
  const key = queryFromReports(asked).toString();
  const [shown, setShown] = useState<{ key: string; report: SpeedReport } | null>(null);
  const [error, setError] = useState('');

  // Other days: the figures shown stay until the new ones come, marked as loading, so the control
  // just used keeps its place and its focus.
  useEffect(() => {
    let current = true;
    setError('');
    const { from, to } = reportsFromQuery(new URLSearchParams(key));
    api.speed({ from, to }).then(
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
      <h1>Speed to lead</h1>
      <RangeForm range={range} now={Date.now()} onApply={(next) => setQuery(queryFromReports({ ...next, split: 'none' }))} />
      {loading ? <p role="status">Loading the figures…</p> : null}
      <ErrorMessage>{error}</ErrorMessage>
      {report ? (
        <div aria-busy={loading}>
          <Figures report={report} />
        </div>
      ) : null}
    </>
  );
}

function Figures({ report }: { report: SpeedReport }) {
  const { overall, range } = report;
  return (
    <>
      <p className="hours">
        {report.businessHours} A lead is reached at its first logged call or e-mail, booked meeting, or status beyond new; automatic
        messages do not count.
      </p>
      {overall.leads === 0 ? (
        <p className="empty">
          No leads from {range.from} to {range.to}.
        </p>
      ) : (
        <>
          <section className="panel" aria-labelledby="speed-overall">
            <h2 id="speed-overall">
              {plural(overall.leads, 'lead', 'leads')} from {range.from} to {range.to}
            </h2>
            <dl className="facts">
              <div>
                <dt>Median time to the first touch</dt>
                <dd>{minutesOf(overall.medianMinutes)}</dd>
              </div>
              <div>
                <dt>9 in 10 first touches within</dt>
                <dd>{minutesOf(overall.p90Minutes)}</dd>
              </div>
              <div>
                <dt>Reached within 5 minutes</dt>
                <dd>{shareOf(overall.within5Minutes, overall)}</dd>
              </div>
              <div>
                <dt>Reached within 1 hour</dt>
                <dd>{shareOf(overall.within1Hour, overall)}</dd>
              </div>
              <div>
                <dt>Never reached</dt>
                <dd>{shareOf(overall.neverReached, overall)}</dd>
              </div>
            </dl>
          </section>
          <GroupTable id="speed-owner" title="By owner" column="Owner" groups={report.byOwner} href={speedExportUrl('owner', range)} />
          <GroupTable id="speed-form" title="By form" column="Form" groups={report.byForm} href={speedExportUrl('form', range)} />
          <GroupTable
            id="speed-campaign"
            title="By campaign"
            column="Campaign"
            groups={report.byCampaign}
            href={speedExportUrl('campaign', range)}
          />
        </>
      )}
    </>
  );
}

function GroupTable({
  id,
  title,
  column,
  groups,
  href,
}: {
  id: string;
  title: string;
  column: string;
  groups: SpeedGroup[];
  href: string;
}) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {groups.length === 0 ? (
        <p className="empty">No leads.</p>
      ) : (
        <ScrollingTable caption={`Speed to lead ${title.toLowerCase()}`}>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col" className="number">
                Leads
              </th>
              <th scope="col" className="number">
                Median
              </th>
              <th scope="col" className="number">
                9 in 10 within
              </th>
              <th scope="col" className="number">
                Within 5 min
              </th>
              <th scope="col" className="number">
                Within 1 h
              </th>
              <th scope="col" className="number">
                Never reached
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={group.key}>
                <th scope="row">{group.label}</th>
                <td className="number">{formatNumber(group.leads)}</td>
                <td className="number">{minutesOf(group.medianMinutes)}</td>
                <td className="number">{minutesOf(group.p90Minutes)}</td>
                <td className="number">{shareOf(group.within5Minutes, group)}</td>
                <td className="number">{shareOf(group.within1Hour, group)}</td>
                <td className="number">{shareOf(group.neverReached, group)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      <DownloadLink href={href} what={`speed to lead ${title.toLowerCase()}`} />
    </section>
  );
}
