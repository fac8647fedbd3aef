// The active filters as chips, each with its own button to remove it, and one to remove them all.
import type { AnalyticsFilter, AnalyticsFilterKey } from '../../api-types.ts';
import { activeFilters, FILTER_NAMES, filterValueName } from './summary-words.ts';

export function FilterChips({ filter, onRemove }: { filter: AnalyticsFilter; onRemove: (keys: readonly AnalyticsFilterKey[]) => void }) {
  const active = activeFilters(filter);
  if (active.length === 0) return null;
  return (
    <section className="filter-chips" aria-labelledby="analytics-filters">
      <h2 id="analytics-filters" className="filter-chips-title">
        Showing only
      </h2>
      <ul className="chips">
        {active.map(({ key, value }) => {
          const words = `${FILTER_NAMES[key]}: ${filterValueName(key, value)}`;
          return (
            <li key={key} className="chip">
              <span>{words}</span>
              <button type="button" className="chip-remove" aria-label={`Remove the filter ${words}`} onClick={() => onRemove([key])}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      {active.length > 1 ? (
        <button type="button" className="button button-quiet" onClick={() => onRemove(active.map(({ key }) => key))}>
          Remove all filters
        </button>
      ) : null}
    </section>
  );
}

/** A value in any table that narrows the whole screen to it when clicked. */
export function FilterButton({
  filterKey,
  value,
  onFilter,
  children,
}: {
  filterKey: AnalyticsFilterKey;
  value: string;
  onFilter: (key: AnalyticsFilterKey, value: string) => void;
  children?: React.ReactNode;
}) {
  const words = filterValueName(filterKey, value);
  return (
    <button
      type="button"
      className="filter-link"
      title={`Show only ${FILTER_NAMES[filterKey].toLowerCase()} ${words}`}
      onClick={() => onFilter(filterKey, value)}
    >
      {children ?? words}
    </button>
  );
}
