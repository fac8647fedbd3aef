// Page speed for real visitors: how fast each page was in visitors' own browsers over the days shown
// (the 75th percentile of Largest Contentful Paint, Interaction to Next Paint and Cumulative Layout
// Shift, each with Google's rating), worded for the owner. A page appears once it has enough visits
// measured for the figure to describe the page rather than a few visitors' phones; until then it says
// so, with how many it has. It fetches its own figures for the days and page it is given.
import { VITAL_METRICS, VITAL_THRESHOLDS, type DayRange, type VitalFigure, type VitalMetric, type VitalsRoute } from '../../api-types.ts';
import { formatNumber, plural } from '../parts/format.tsx';
import { LoadState } from '../parts/messages.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';

/** Each measure's name and what it tells an owner. */
export const VITAL_WORDS: Readonly<Record<VitalMetric, { name: string; meaning: string }>> = {
  LCP: { name: 'Largest Contentful Paint', meaning: 'how long the main content takes to appear' },
  INP: { name: 'Interaction to Next Paint', meaning: 'how quickly the page answers a tap, click or key press' },
  CLS: { name: 'Cumulative Layout Shift', meaning: 'how much the page jumps around while it loads' },
};

const RATING_WORDS: Readonly<Record<VitalFigure['rating'], string>> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};

/** A measure as people read it: seconds for the main content, milliseconds for a reply, a plain score for shifts. */
export function formatVital(metric: VitalMetric, value: number): string {
  if (metric === 'LCP') return `${(value / 1000).toFixed(1)} s`;
  if (metric === 'INP') return `${formatNumber(Math.round(value))} ms`;
  return value.toFixed(2);
}

export function VitalsSection({ range, page }: { range: DayRange; page?: string }) {
  const { api } = useSession();
  const loaded = useLoad(() => api.analyticsVitals({ ...range, page }), `${range.from} ${range.to} ${page ?? ''}`);
  return (
    <section className="panel" aria-labelledby="analytics-vitals">
      <h2 id="analytics-vitals">Page speed for real visitors</h2>
      <LoadState loaded={loaded} what="page speed">
        {(report) => (
          <>
            <p>
              Measured in visitors’ own browsers, on their phones, computers and connections, and rated as Google rates pages. Each figure
              is what three visits in four were at least as fast as. A page is shown once it has {report.minSamples} visits measured in
              these days: fewer describe a few visitors’ devices more than the page. Visitors who ask not to be tracked send nothing, and
              some browsers cannot measure every figure.
            </p>
            <ul className="plain-list">
              {VITAL_METRICS.map((metric) => (
                <li key={metric}>
                  <strong>{VITAL_WORDS[metric].name}</strong> — {VITAL_WORDS[metric].meaning}. Good at{' '}
                  {formatVital(metric, VITAL_THRESHOLDS[metric][0])} or less, poor over {formatVital(metric, VITAL_THRESHOLDS[metric][1])}.
                </li>
              ))}
            </ul>
            {report.routes.length === 0 ? (
              <p className="empty">{page ? `No visit to ${page} was measured in these days.` : 'No visit was measured in these days.'}</p>
            ) : (
              report.routes.map((route) => <RouteVitals key={route.path} route={route} minSamples={report.minSamples} />)
            )}
          </>
        )}
      </LoadState>
    </section>
  );
}

function RouteVitals({ route, minSamples }: { route: VitalsRoute; minSamples: number }) {
  const notYet = `Not enough visits measured yet: ${formatNumber(route.measured)} of ${formatNumber(minSamples)}.`;
  return (
    <div className="vitals-route">
      <h3>{route.path}</h3>
      {route.figures.length === 0 ? (
        <p className="empty">{notYet}</p>
      ) : (
        <dl className="facts">
          {VITAL_METRICS.map((metric) => {
            const figure = route.figures.find((candidate) => candidate.metric === metric);
            return (
              <div key={metric}>
                <dt>{VITAL_WORDS[metric].name}</dt>
                <dd>
                  {figure ? (
                    <>
                      {formatVital(metric, figure.p75)}{' '}
                      <span className={`badge badge-${figure.rating}`}>{RATING_WORDS[figure.rating]}</span>
                      <span className="vitals-samples">{plural(figure.samples, 'visit measured', 'visits measured')}</span>
                    </>
                  ) : (
                    <span className="vitals-samples">Not enough visits measured yet.</span>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </div>
  );
}
