import type { AnalyticsStore, VisitEvent, VitalsSample } from '../analytics-store.ts';
import { SQLITE_ANALYTICS_MIGRATIONS } from '../sqlite-analytics-store.ts';

// An AnalyticsStore in memory for the tests of what writes to it (the collection endpoint): the
// events it was given and the day salts. The reports are the real stores' business; here they throw.

export type MemoryAnalyticsStore = AnalyticsStore & {
  /** Every batch recordEvents was given, in order. */
  readonly batches: VisitEvent[][];
  readonly events: () => VisitEvent[];
  /** Every page load's field speed recordVitals was given, in order. */
  readonly vitalsSamples: VitalsSample[];
  readonly salts: Map<string, string>;
  /** Makes the next calls of recordEvents (or saltForDay) fail, until set back to undefined. */
  failWith: { recordEvents?: Error; saltForDay?: Error };
};

export function createMemoryAnalyticsStore(): MemoryAnalyticsStore {
  const batches: VisitEvent[][] = [];
  const salts = new Map<string, string>();
  const notUsed = (name: string) => () => Promise.reject(new Error(`${name} is not used by the memory analytics store's tests`));
  const store: MemoryAnalyticsStore = {
    batches,
    events: () => batches.flat(),
    vitalsSamples: [],
    salts,
    failWith: {},
    async recordEvents(events) {
      if (store.failWith.recordEvents) throw store.failWith.recordEvents;
      batches.push(events.map((event) => structuredClone(event)));
    },
    async saltForDay(day, candidate) {
      if (store.failWith.saltForDay) throw store.failWith.saltForDay;
      if (!salts.has(day)) salts.set(day, candidate);
      return salts.get(day)!;
    },
    async deleteSaltsBefore(day) {
      for (const kept of [...salts.keys()]) if (kept < day) salts.delete(kept);
    },
    async recordVitals(samples) {
      store.vitalsSamples.push(...samples.map((sample) => structuredClone(sample)));
    },
    vitals: notUsed('vitals'),
    recordLead: notUsed('recordLead'),
    recordLeadJudged: notUsed('recordLeadJudged'),
    recordLeadDelivered: notUsed('recordLeadDelivered'),
    recordMeeting: notUsed('recordMeeting'),
    summaryDays: notUsed('summaryDays'),
    summaryMonths: notUsed('summaryMonths'),
    conversions: notUsed('conversions'),
    summaryCountedFrom: notUsed('summaryCountedFrom'),
    dayTotals: notUsed('dayTotals'),
    pageTotals: notUsed('pageTotals'),
    referrerTotals: notUsed('referrerTotals'),
    campaignTotals: notUsed('campaignTotals'),
    entryTotals: notUsed('entryTotals'),
    funnel: notUsed('funnel'),
    deleteRawBefore: notUsed('deleteRawBefore'),
    // Current, as a store the server migrated at start is.
    schemaVersion: async () => SQLITE_ANALYTICS_MIGRATIONS.length,
    close: async () => undefined,
  };
  return store;
}
