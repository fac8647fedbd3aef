// Timing budgets that hold on a busy machine. A test that says "this takes under 100 ms" proves the
// code does not blow up (a pattern that backtracks, a loop that turns quadratic), but a fixed number
// also fails whenever other work shares the machine's two cores. So a budget is written for an idle
// machine and stretched by how much slower a fixed reference workload runs right now, timed just
// before and just after the work under test: load slows both alike, while a blow-up still costs
// hundreds of times the budget and fails. The budget never shrinks below what the test wrote.

/**
 * How long the reference workload takes on this project's 2-core CI machine when nothing else runs
 * (the fastest of many runs there). A faster machine keeps the written budget as it is.
 */
export const REFERENCE_IDLE_MS = 4;

/** Never stretch a budget more than this: a machine this slow proves nothing about the code. */
const MAX_SLOWDOWN = 20;

const REFERENCE_TEXT = 'Grace Hopper <grace@navy.example> asked about voice agents; '.repeat(2_000);

/** Plain string, regex and arithmetic work in one thread, as the code these budgets time does. */
function referenceWorkload(): number {
  const replaced = REFERENCE_TEXT.replace(/[aeiou]+/g, (vowels) => vowels.toUpperCase());
  let hash = 0;
  for (let i = 0; i < replaced.length; i++) hash = (hash * 31 + replaced.charCodeAt(i)) | 0;
  return hash;
}

function timeReference(): number {
  const started = performance.now();
  referenceWorkload();
  return performance.now() - started;
}
// The first runs compile the workload; only warm runs measure the machine.
for (let run = 0; run < 5; run++) timeReference();

/** How many times slower than idle the machine runs now (1 at least), from the faster of two reference runs. */
export function machineSlowdown(): number {
  const ms = Math.min(timeReference(), timeReference());
  return Math.min(MAX_SLOWDOWN, Math.max(1, ms / REFERENCE_IDLE_MS));
}

export type Timed<T> = {
  readonly result: T;
  /** How long the work took. */
  readonly ms: number;
  /** The written budget stretched by the machine's slowdown around the work. */
  readonly budgetMs: number;
};

/**
 * Runs `work` (`runs` times, keeping the fastest: a pause of the machine's drops out) and times it,
 * with the budget it must stay under: `idleBudgetMs` times the machine's slowdown measured just
 * before and just after (the larger of the two). The result is the last run's.
 */
export async function timeAgainstBudget<T>(idleBudgetMs: number, work: () => T | Promise<T>, runs = 1): Promise<Timed<T>> {
  const before = machineSlowdown();
  let ms = Infinity;
  let result: T | undefined;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    result = await work();
    ms = Math.min(ms, performance.now() - started);
  }
  const after = machineSlowdown();
  return { result: result as T, ms, budgetMs: idleBudgetMs * Math.max(before, after) };
}
