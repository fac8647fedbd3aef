// The background jobs' runs, shared by every process on one database: one row per job and period
// (or, for a job held as a loop, one row it keeps renewing). Whoever inserts the row, or takes it
// over once its holder's lease lapsed, does that period's work; a finished row is never taken again.

/** What asking for a run gives: the run (this process does the work), or why another does. */
export type JobClaim =
  | { readonly outcome: 'claimed'; readonly attempts: number }
  | { readonly outcome: 'done' }
  | { readonly outcome: 'held'; readonly holder: string; readonly leaseUntil: number };

export type JobClaimRequest = {
  readonly job: string;
  readonly period: string;
  /** This process's holder id (host, pid and a random part). */
  readonly holder: string;
  readonly now: number;
  readonly leaseMs: number;
};

export type JobRunRecord = {
  readonly job: string;
  readonly period: string;
  readonly holder: string;
  readonly state: 'running' | 'done';
  readonly startedAt: number;
  readonly leaseUntil: number;
  readonly finishedAt: number | undefined;
  readonly attempts: number;
};

export interface JobStore {
  /**
   * Takes the job's run for the period: inserts it, or takes over a run still `running` whose lease
   * lapsed before `now` (its attempts go up by one). A finished run, or one whose holder's lease is
   * still good, is not taken: the answer says which.
   */
  claimJobRun(request: JobClaimRequest): Promise<JobClaim>;
  /** Extends this holder's lease on a run still running; false when another took it over or it finished. */
  renewJobRun(request: JobClaimRequest): Promise<boolean>;
  /** Marks this holder's run done; false when another took it over meanwhile (its work counts all the same). */
  finishJobRun(request: Omit<JobClaimRequest, 'leaseMs'>): Promise<boolean>;
  /** Ends this holder's lease now without finishing the run, so the next claimer need not wait for it. */
  releaseJobRun(request: Omit<JobClaimRequest, 'leaseMs'>): Promise<boolean>;
  /** Every run of `job` (of every job when undefined), oldest period first. */
  listJobRuns(job?: string): Promise<JobRunRecord[]>;
  /** Deletes the runs whose lease ended before `before` (finished or abandoned long ago); how many. */
  deleteJobRunsBefore(before: number): Promise<number>;
}
