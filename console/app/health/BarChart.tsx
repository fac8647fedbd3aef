// A small horizontal bar chart drawn by React as inline SVG: one group per row, one bar per series,
// each value written at the end of its bar. No chart library: a few rectangles need none, and
// plain SVG obeys the console's strict Content-Security-Policy. The chart is an image with a short
// text alternative; the table beside it carries the same numbers for everyone.
export type BarRow = { label: string; values: readonly number[] };

const WIDTH = 320;
const LABEL_HEIGHT = 16;
const BAR_HEIGHT = 12;
const BAR_GAP = 3;
const GROUP_GAP = 12;
const VALUE_ROOM = 36;

export function BarChart({ title, series, rows }: { title: string; series: readonly string[]; rows: readonly BarRow[] }) {
  const max = Math.max(1, ...rows.flatMap((row) => row.values));
  const groupHeight = LABEL_HEIGHT + series.length * (BAR_HEIGHT + BAR_GAP) + GROUP_GAP;
  const height = Math.max(groupHeight * rows.length, 1);
  const summary = `${title}: ${rows.map((row) => `${row.label} ${row.values.map((value, i) => `${value} ${series[i] ?? ''}`.trim()).join(', ')}`).join('; ')}.`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={summary} className="chart-svg">
        {rows.map((row, rowIndex) => {
          const top = rowIndex * groupHeight;
          return (
            <g key={row.label}>
              <text x={0} y={top + LABEL_HEIGHT - 4} className="chart-label">
                {row.label}
              </text>
              {row.values.map((value, seriesIndex) => {
                const y = top + LABEL_HEIGHT + seriesIndex * (BAR_HEIGHT + BAR_GAP);
                const width = ((WIDTH - VALUE_ROOM) * value) / max;
                return (
                  <g key={seriesIndex}>
                    <rect x={0} y={y} width={Math.max(width, 1)} height={BAR_HEIGHT} className={`chart-bar chart-bar-${seriesIndex}`} />
                    <text x={width + 4} y={y + BAR_HEIGHT - 2} className="chart-value">
                      {value}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
      {series.length > 1 ? (
        <figcaption className="chart-legend">
          {series.map((name, index) => (
            <span key={name} className="chart-key">
              <span className={`chart-swatch chart-bar-${index}`} aria-hidden="true" /> {name}
            </span>
          ))}
        </figcaption>
      ) : null}
    </figure>
  );
}
