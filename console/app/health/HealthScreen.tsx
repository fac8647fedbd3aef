// The console's first screen: how many leads came in (per form, as a chart with its table, and per
// day) and how much spam, whether they reach the CRM (sent in the last 24 hours, given up and
// still trying, each linked to the inbox list it counts, the oldest one waiting, the CRM's last success,
// the backlog and how long it takes to drain), an open incident and how long leads are kept.
import { Link } from 'react-router-dom';
import type { Health } from '../../api-types.ts';
import { LoadState } from '../parts/messages.tsx';
import { formatMinutes, formatTime, plural } from '../parts/format.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';
import { BarChart } from './BarChart.tsx';

export function HealthScreen() {
  const { api } = useSession();
  const health = useLoad(api.health, 'health');
  return (
    <>
      <h1>Health</h1>
      <LoadState loaded={health} what="the console's health">
        {(data) => <HealthReport health={data} />}
      </LoadState>
    </>
  );
}

function HealthReport({ health }: { health: Health }) {
  const { incident, oldestUndelivered, backlog } = health;
  return (
    <>
      {incident ? (
        <div className="banner banner-incident" role="alert">
          <h2>Leads are not reaching the CRM</h2>
          <p>
            Since {formatTime(incident.since)}.{incident.lastError ? ` Last error: ${incident.lastError}` : ''}
          </p>
        </div>
      ) : null}

      <section aria-labelledby="leads-per-form" className="panel">
        <h2 id="leads-per-form">Leads per form</h2>
        <div className="chart-with-table">
          <BarChart
            title="Leads per form, today and in the last 7 days"
            series={['today', 'last 7 days']}
            rows={health.perForm.map((form) => ({ label: form.form, values: [form.today, form.week] }))}
          />
          <table className="table">
            <caption className="visually-hidden">Leads per form, spam excluded</caption>
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col" className="number">
                  Today
                </th>
                <th scope="col" className="number">
                  Last 7 days
                </th>
              </tr>
            </thead>
            <tbody>
              {health.perForm.map((form) => (
                <tr key={form.form}>
                  <th scope="row">{form.form}</th>
                  <td className="number">{form.today}</td>
                  <td className="number">{form.week}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="leads-per-day" className="panel">
        <h2 id="leads-per-day">Leads per day</h2>
        <div className="chart-with-table">
          <BarChart
            title="Leads per day, last 7 days"
            series={['leads']}
            rows={health.perDay.map((day) => ({ label: day.day, values: [day.leads] }))}
          />
          <table className="table">
            <caption className="visually-hidden">Leads per day, all forms</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="number">
                  Leads
                </th>
              </tr>
            </thead>
            <tbody>
              {health.perDay.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  <td className="number">{day.leads}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="spam-week" className="panel">
        <h2 id="spam-week">Spam</h2>
        <p>
          {health.spamWeek === 0 ? (
            'No spam in the last 7 days.'
          ) : (
            <>
              <Link to={`/spam?from=${health.perDay[0]?.day ?? ''}`}>{plural(health.spamWeek, 'lead', 'leads')} judged spam</Link> in the
              last 7 days. Look for real ones among them: a real lead leaves spam only by "Not spam".
            </>
          )}
        </p>
      </section>

      <section aria-labelledby="delivery" className="panel">
        <h2 id="delivery">CRM delivery</h2>
        <dl className="facts">
          <div>
            <dt>Sent to the CRM in the last 24 hours</dt>
            <dd>{health.deliveredLast24h}</dd>
          </div>
          <div>
            <dt>Gave up</dt>
            <dd>{health.failed > 0 ? <Link to="/leads?state=failed">{plural(health.failed, 'lead', 'leads')}</Link> : 'None'}</dd>
          </div>
          <div>
            <dt>Still trying (the CRM did not take the last attempt)</dt>
            <dd>{health.retrying > 0 ? <Link to="/leads?state=retrying">{plural(health.retrying, 'lead', 'leads')}</Link> : 'None'}</dd>
          </div>
          <div>
            <dt>Oldest lead not sent to the CRM yet</dt>
            <dd>
              {oldestUndelivered ? (
                <>
                  <Link to={`/leads/${encodeURIComponent(oldestUndelivered.id)}`}>Received {formatTime(oldestUndelivered.receivedAt)}</Link>
                  , waiting {formatMinutes(oldestUndelivered.waitedMinutes)}
                </>
              ) : (
                'None waiting'
              )}
            </dd>
          </div>
          <div>
            <dt>CRM's last success</dt>
            <dd>{health.lastCrmSuccessAt ? formatTime(health.lastCrmSuccessAt) : 'Never'}</dd>
          </div>
          <div>
            <dt>Backlog</dt>
            <dd>
              {backlog.pending === 0
                ? 'Nothing waiting'
                : `${describeBacklog(backlog.pending, health.retrying)}; ${describeDrain(backlog)}`}
            </dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="retention" className="panel">
        <h2 id="retention">Retention</h2>
        <RetentionPolicy retention={health.retention} />
      </section>
    </>
  );
}

/** "12 leads to send (7 waiting to be sent, 5 still trying)": the backlog in the words the inbox filters by. */
function describeBacklog(pending: number, retrying: number): string {
  const waiting = Math.max(0, pending - retrying);
  return `${plural(pending, 'lead', 'leads')} to send (${waiting} waiting to be sent, ${Math.min(retrying, pending)} still trying)`;
}

/** How long the backlog takes at the CRM pace; no figure while the CRM refuses, when none would be true. */
function describeDrain(backlog: Health['backlog']): string {
  return backlog.drainMinutes === null
    ? 'no estimate of when they go while the CRM is refusing leads'
    : `about ${formatMinutes(backlog.drainMinutes)} at ${backlog.maxPer10s} per 10 seconds`;
}

export function RetentionPolicy({ retention }: { retention: Health['retention'] }) {
  return (
    <ul className="plain-list">
      <li>
        {retention.leadDays === null
          ? 'Leads are kept until they are erased.'
          : `Leads are erased after ${plural(retention.leadDays, 'day', 'days')}.`}
      </li>
      <li>Spam is erased after {plural(retention.spamDays, 'day', 'days')}.</li>
    </ul>
  );
}
