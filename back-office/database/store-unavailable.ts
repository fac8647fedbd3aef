// A store that cannot take a write right now (another process holds SQLite's write lock past the
// busy timeout, PostgreSQL refuses connections) fails with this message. The relay answers 503 with
// Retry-After, so the browser sends the lead again instead of losing it. The message is the marker
// because errors from the SQLite worker thread cross to the main thread as plain Errors.
export const STORE_UNAVAILABLE_MESSAGE = 'The lead store is briefly unavailable';

export function storeUnavailableError(cause: unknown): Error {
  return new Error(STORE_UNAVAILABLE_MESSAGE, { cause });
}

export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof Error && error.message === STORE_UNAVAILABLE_MESSAGE;
}
