// @vitest-environment happy-dom
// Field speed as a visitor's browser reports it: the values web-vitals gives, sent once when the page
// is first hidden, with the page's path and nothing else; nothing while nothing is measured.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Metric } from 'web-vitals';
import { startVitals } from './vitals.ts';

type Report = (metric: Metric) => void;
const reporters = vi.hoisted(() => ({}) as Record<'LCP' | 'INP' | 'CLS', (metric: Metric) => void>);
vi.mock('web-vitals', () => ({
  onLCP: (report: Report) => (reporters.LCP = report),
  onINP: (report: Report) => (reporters.INP = report),
  onCLS: (report: Report) => (reporters.CLS = report),
}));

const measured = (name: Metric['name'], value: number) => ({ name, value }) as Metric;

let visibility: DocumentVisibilityState;
let stop: AbortController;
let sent: unknown[];
const send = (body: string) => sent.push(JSON.parse(body));

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

beforeEach(() => {
  sent = [];
  stop = new AbortController();
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { get: () => visibility, configurable: true });
});
afterEach(() => stop.abort());

describe('field speed', () => {
  it('is sent once, when the page is first hidden, with the values measured by then and the page it was measured on', () => {
    startVitals('/pricing', send, stop.signal);
    reporters.LCP(measured('LCP', 1834.6));
    reporters.CLS(measured('CLS', 0.041_234));
    expect(sent).toEqual([]);

    // The library reports its last values on hiding, before the report leaves.
    document.addEventListener('visibilitychange', () => visibility === 'hidden' && reporters.INP(measured('INP', 96)), {
      signal: stop.signal,
    });
    setVisibility('hidden');
    expect(sent).toEqual([{ type: 'vitals', path: '/pricing', vitals: { LCP: 1834.6, CLS: 0.0412, INP: 96 } }]);

    setVisibility('visible');
    reporters.CLS(measured('CLS', 0.3));
    setVisibility('hidden');
    expect(sent).toHaveLength(1);
  });

  it('waits while nothing is measured yet: a page hidden before its content appeared sends nothing then', () => {
    startVitals('/', send, stop.signal);
    setVisibility('hidden');
    expect(sent).toEqual([]);
    setVisibility('visible');
    reporters.LCP(measured('LCP', 900));
    setVisibility('hidden');
    expect(sent).toEqual([{ type: 'vitals', path: '/', vitals: { LCP: 900 } }]);
  });

  it('sends nothing once stopped', () => {
    startVitals('/', send, stop.signal);
    reporters.LCP(measured('LCP', 900));
    stop.abort();
    setVisibility('hidden');
    expect(sent).toEqual([]);
  });
});
