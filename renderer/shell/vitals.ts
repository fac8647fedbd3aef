// Field speed from the visitor's own browser: Largest Contentful Paint, Interaction to Next Paint and
// Cumulative Layout Shift, measured by the web-vitals library and sent once per page load, when the
// page is first hidden (the visitor leaves, closes the tab or switches away): by then the three have
// their final values. The report names the page and the values, nothing else. The beacon loads this
// module on its own, after the page has been painted, and only for visitors it may count.
import { onCLS, onINP, onLCP, type Metric } from 'web-vitals';
import type { VitalName, VitalsBeacon } from '../../lead/beacon-event.ts';

/**
 * Measures the page shown now (`path`, the site's name for it) and hands the report to `send` once,
 * when the page is first hidden with something measured. `signal` stops it (tests start one per case).
 */
export function startVitals(path: string, send: (body: string) => void, signal?: AbortSignal): void {
  const vitals: VitalsBeacon['vitals'] = {};
  // Four decimals: finer than a millisecond for the times, than the ratings need for the layout score.
  const keep = ({ name, value }: Metric) => (vitals[name as VitalName] = Math.round(value * 1e4) / 1e4);
  // Without reportAllChanges each metric reports its final value, at the latest when the page is hidden.
  onLCP(keep);
  onINP(keep);
  onCLS(keep);
  // The library hears `visibilitychange` on the document; this listens on the window, where the event
  // arrives after every document listener, so the values they report on hiding are in this report.
  const hidden = () => {
    if (document.visibilityState === 'hidden' && Object.keys(vitals)[0]) {
      removeEventListener('visibilitychange', hidden);
      send(JSON.stringify({ type: 'vitals', path, vitals } satisfies VitalsBeacon));
    }
  };
  addEventListener('visibilitychange', hidden, { signal });
}
