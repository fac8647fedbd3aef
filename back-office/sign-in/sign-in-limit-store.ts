// Sign-in attempts counted per key (address, account, account+address) by every app and process
// sharing the database.

/** One key a sign-in attempt is counted under, and the most attempts it may have within the window. */
export type SignInKeyLimit = {
  readonly key: string;
  readonly limit: number;
  /** This key is not limited when this account+address key signed in within `knownForMs`. */
  readonly unlessKnown?: string;
};

export type SignInAttemptRequest = {
  /** Names this attempt's rows, so they can be withdrawn or forgotten. */
  readonly id: string;
  readonly at: number;
  /** Attempts made this long before `at`, or longer, no longer count. */
  readonly windowMs: number;
  /** How long an account+address key that signed in stays known. */
  readonly knownForMs: number;
  /** Every key the attempt is recorded under if it is allowed, each with its limit. */
  readonly keys: readonly SignInKeyLimit[];
};

/** How many expired sign-in attempts, and known keys, one attempt deletes: enough to keep up, never a long transaction. */
export const SIGN_IN_PURGE_BATCH = 100;

export type SignInAttemptResult = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

/** The sign-in limiter's shared counts. */
export interface SignInLimitStore {
  /**
   * In one transaction, so every process on this database counts together: refuses the attempt if any
   * key already has its limit of attempts within the window (answering how long until the oldest of
   * them that must expire does), else records it under every key. Also drops a bounded number of
   * attempts older than the window and known keys older than `knownForMs`.
   */
  countSignInAttempt(request: SignInAttemptRequest): Promise<SignInAttemptResult>;
  /**
   * The attempt's password was right: forgets every attempt counted under `pairKey`, un-counts this
   * attempt under its other keys, and remembers `pairKey` as known from `at`.
   */
  signInSucceeded(id: string, pairKey: string, at: number): Promise<void>;
  /** The attempt was never checked: it no longer counts under any key. */
  withdrawSignInAttempt(id: string): Promise<void>;
}
