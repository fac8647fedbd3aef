/** A page size is the calling code's choice: anything but a whole number of at least 1 is its mistake. */
export function assertPageLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`A page limit must be a whole number of at least 1, got ${limit}`);
}
