// The one chart over time: a metric chosen by the reader (kept in the address), one column per day
// (per month for a range longer than three months) placed on the range's calendar, so a gap is a
// day with nothing. Only days with something are
// listed in the table beside it (one click away, so a phone is not a page of rows); the days with
// nothing are counted in one sentence instead of a table of zeros. The SVG is labelled with a
// summary in words, and the table is its full alternative.
import { SERIES_METRICS, type AnalyticsSummary, type SeriesMetric } from '../../api-types.ts';
import { Field } from '../parts/Field.tsx';
import { formatNumber, plural } from '../parts/format.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { daysOfRange } from './KeyFigures.tsx';
import { METRIC_NAMES } from './summary-words.ts';

const WIDTH = 320;
const PLOT_TOP = 14;
const PLOT_HEIGHT = 120;
const AXIS_ROOM = 16;
const DAY_MS = 24 * 60 * 60 * 1000;

/** "12 days with no visits or leads hidden", or nothing when every day had something. */
export function emptyDaysWords(emptyDays: number): string {
  return emptyDays === 0 ? '' : `${plural(emptyDays, 'day', 'days')} with no visits or leads hidden.`;
}

export function SeriesChart({
  summary,
  metric,
  onMetric,
}: {
  summary: AnalyticsSummary;
  metric: SeriesMetric;
  onMetric: (metric: SeriesMetric) => void;
}) {
  const { range, series, emptyDays, seriesGrain } = summary;
  const byMonth = seriesGrain === 'month';
  const monthOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  // A point's place on the range's calendar: its day, or its month for a long range.
  const placeOf = (day: string) =>
    byMonth ? monthOf(day) - monthOf(range.from) : Math.round((Date.parse(`${day}T00:00:00Z`) - first) / DAY_MS);
  const first = Date.parse(`${range.from}T00:00:00Z`);
  const slots = byMonth ? monthOf(range.to) - monthOf(range.from) + 1 : daysOfRange(range);
  const max = Math.max(1, ...series.map((point) => point[metric]));
  const slot = WIDTH / Math.max(slots, 1);
  const column = Math.max(0.5, slot >= 4 ? slot * 0.7 : slot);
  const total = series.reduce((sum, point) => sum + point[metric], 0);
  const busiest = series.reduce<(typeof series)[number] | undefined>(
    (best, point) => (best === undefined || point[metric] > best[metric] ? point : best),
    undefined,
  );
  const name = METRIC_NAMES[metric];
  const words =
    `${name} per ${byMonth ? 'month' : 'day'}, ${range.from} to ${range.to}: ${formatNumber(total)} in all` +
    (busiest && busiest[metric] > 0
      ? byMonth
        ? `; the most in one month, ${formatNumber(busiest[metric])}, in ${busiest.day.slice(0, 7)}.`
        : `; the most on one day, ${formatNumber(busiest[metric])}, on ${busiest.day}.`
      : '.');
  const bottom = PLOT_TOP + PLOT_HEIGHT;
  const height = bottom + AXIS_ROOM;
  return (
    <section className="panel" aria-labelledby="analytics-series">
      <h2 id="analytics-series">Over time</h2>
      <Field label="Show">
        {(control) => (
          <select {...control} name="metric" value={metric} onChange={(event) => onMetric(event.target.value as SeriesMetric)}>
            {SERIES_METRICS.map((value) => (
              <option key={value} value={value}>
                {METRIC_NAMES[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {series.length === 0 ? (
        <p className="empty">Nothing counted on any day of this range.</p>
      ) : (
        <div className="chart-with-table">
          <figure className="chart">
            <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={words} className="chart-svg">
              <text x={0} y={10} className="chart-value">
                {formatNumber(max)}
              </text>
              <line x1={0} x2={WIDTH} y1={bottom} y2={bottom} className="chart-axis" />
              {series.map((point) => {
                const index = placeOf(point.day);
                const barHeight = (PLOT_HEIGHT * point[metric]) / max;
                return (
                  <rect
                    key={point.day}
                    x={index * slot + (slot - column) / 2}
                    y={bottom - barHeight}
                    width={column}
                    height={barHeight}
                    className="chart-bar chart-bar-0"
                  />
                );
              })}
              <text x={0} y={height - 3} className="chart-label">
                {range.from}
              </text>
              <text x={WIDTH} y={height - 3} textAnchor="end" className="chart-label">
                {range.to}
              </text>
            </svg>
          </figure>
          <details className="chart-table">
            <summary>The same numbers as a table</summary>
            <ScrollingTable
              caption={`${name} per ${byMonth ? 'month' : 'day'} (UTC), ${byMonth ? 'months' : 'days'} with something counted`}
            >
              <thead>
                <tr>
                  <th scope="col">{byMonth ? 'Month (from the day shown)' : 'Day (UTC)'}</th>
                  <th scope="col" className="number">
                    {name}
                  </th>
                </tr>
              </thead>
              <tbody>
                {series.map((point) => (
                  <tr key={point.day}>
                    <th scope="row">{point.day}</th>
                    <td className="number">{formatNumber(point[metric])}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
          </details>
        </div>
      )}
      {emptyDays > 0 && series.length > 0 ? <p className="note">{emptyDaysWords(emptyDays)}</p> : null}
    </section>
  );
}
