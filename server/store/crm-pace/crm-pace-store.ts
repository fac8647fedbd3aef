// The CRM's pace shared by every process on one database (see pace-log.ts for the window itself).

/** A maximum per 10 seconds is the calling code's choice: anything but a whole number of at least 1 is its mistake. */
export function assertPaceLimit(maxPer10s: number): void {
  if (!Number.isInteger(maxPer10s) || maxPer10s < 1) throw new Error(`A CRM pace must be a whole number of at least 1, got ${maxPer10s}`);
}

/** Slots to send to the CRM, counted together by every process on this database. */
export interface CrmPaceStore {
  /**
   * Grants up to `wanted` CRM sends (0..wanted) so that every process on this database together
   * sends at most `maxPer10s` in any 10 seconds. Each granted slot must become one send, or be
   * handed back with giveBackCrmSlots.
   */
  takeCrmSlots(now: number, wanted: number, maxPer10s: number): Promise<number>;
  /** Hands back slots takeCrmSlots granted but that were not used (fewer leads were due). */
  giveBackCrmSlots(now: number, count: number): Promise<void>;
}
