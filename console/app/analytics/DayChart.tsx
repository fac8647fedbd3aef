// Visitors and page views per day as columns drawn by React in inline SVG (as health/BarChart.tsx
// draws its bars, and for the same reasons): two columns a day, visitors first, so the series differ
// by place and not by colour alone. A range of years has thousands of days, so the text alternative
// sums the range up instead of reading every day out; the table beside the chart lists them all.
import type { DayTotals } from '../../api-types.ts';
import { formatNumber } from '../parts/format.tsx';

const WIDTH = 320;
const PLOT_TOP = 14;
const PLOT_HEIGHT = 120;
const AXIS_ROOM = 16;
const SERIES = ['visitors', 'page views'] as const;

export function DayChart({ days }: { days: readonly DayTotals[] }) {
  const max = Math.max(1, ...days.map((day) => Math.max(day.visitors, day.pageviews)));
  const slot = WIDTH / Math.max(days.length, 1);
  // Each day's two columns share its slot, with a gap between days while there is room for one.
  const column = slot / (slot >= 4 ? 2.5 : 2);
  const busiest = days.reduce<DayTotals | undefined>(
    (best, day) => (best === undefined || day.visitors > best.visitors ? day : best),
    undefined,
  );
  const visitors = days.reduce((sum, day) => sum + day.visitors, 0);
  const pageviews = days.reduce((sum, day) => sum + day.pageviews, 0);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const summary =
    `Visitors and page views per day, ${first} to ${last}: ${formatNumber(visitors)} visitors and ${formatNumber(pageviews)} page views in all` +
    (busiest && busiest.visitors > 0 ? `; the most visitors on one day, ${formatNumber(busiest.visitors)}, on ${busiest.day}.` : '.');
  const height = PLOT_TOP + PLOT_HEIGHT + AXIS_ROOM;
  const bottom = PLOT_TOP + PLOT_HEIGHT;
  const barHeight = (value: number) => (PLOT_HEIGHT * value) / max;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={summary} className="chart-svg">
        <text x={0} y={10} className="chart-value">
          {formatNumber(max)}
        </text>
        <line x1={0} x2={WIDTH} y1={bottom} y2={bottom} className="chart-axis" />
        {days.map((day, index) => {
          const left = index * slot + (slot - 2 * column) / 2;
          return (
            <g key={day.day}>
              {[day.visitors, day.pageviews].map((value, series) => (
                <rect
                  key={SERIES[series]}
                  x={left + series * column}
                  y={bottom - barHeight(value)}
                  width={column}
                  height={barHeight(value)}
                  className={`chart-bar chart-bar-${series}`}
                />
              ))}
            </g>
          );
        })}
        <text x={0} y={height - 3} className="chart-label">
          {first}
        </text>
        <text x={WIDTH} y={height - 3} textAnchor="end" className="chart-label">
          {last}
        </text>
      </svg>
      <figcaption className="chart-legend">
        {SERIES.map((name, index) => (
          <span key={name} className="chart-key">
            <span className={`chart-swatch chart-bar-${index}`} aria-hidden="true" /> {name === 'visitors' ? 'Visitors' : 'Page views'}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
