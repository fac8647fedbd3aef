// The row of key figures the screen opens on: each with its value for the range and its change
// against the previous period of the same length, in words.
import type { AnalyticsSummary } from '../../api-types.ts';
import { changeWords, FIGURE_NAMES, figureValue } from './summary-words.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function daysOfRange(range: { from: string; to: string }): number {
  return Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY_MS) + 1;
}

export function KeyFigures({ summary }: { summary: AnalyticsSummary }) {
  const days = daysOfRange(summary.range);
  const withForm = summary.filter.form !== undefined;
  return (
    <section aria-labelledby="analytics-figures">
      <h2 id="analytics-figures" className="visually-hidden">
        Key figures
      </h2>
      <ul className="key-figures">
        {summary.figures.map((figure) => {
          const change = changeWords(figure, days);
          const direction = change.startsWith('▲') ? 'up' : change.startsWith('▼') ? 'down' : 'flat';
          return (
            <li key={figure.name} className="key-figure">
              <span className="key-figure-name">
                {figure.name === 'visitors' && withForm ? 'Visitors who saw the form' : FIGURE_NAMES[figure.name]}
              </span>
              <span className="key-figure-value">{figureValue(figure)}</span>
              <span className={`key-figure-change key-figure-${direction}`}>{change}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
