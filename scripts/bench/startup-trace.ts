// Where a page's main-thread time goes while it starts, read from a Chromium performance trace.
// A route is loaded in a phone-sized Chromium page with its CPU slowed by a factor (the network is not
// throttled: the pages come from our own server on this machine), traced until the page is quiet, then
// touched once as a visitor would: the calculator's and the forms' first field is typed into, every
// other page's menu button is tapped. Lighthouse's own trace model (the one behind its "main-thread
// work" audits) turns the trace into tasks; this module says, for each long task, what ran in it
// (script, style and layout, parsing), which of our modules, and whether it came before the first
// paint, between it and the first interaction, or after.
//
// Used by `npm run bench:pages -- --breakdown` (tables in docs/performance.md) and by the startup
// budget test (tests/e2e/startup-work.spec.ts), which sums the same work unthrottled.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { MainThreadTasks, type TaskNode } from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import { CpuProfileModel } from 'lighthouse/core/lib/tracehouse/cpu-profile-model.js';
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js';
import { CHUNK_MODULES_FILE, type ChunkModules } from '../budgets/chunk-modules-plugin.ts';
import { HYDRATED_MARK } from '../../ui/page/page-markers.ts';
import { FORM_PAUSE_MS } from '../../renderer/islands/island-timing.ts';
import type { BareBrowser, Visitor } from './bare-browser.ts';

/** A task on the main thread longer than this blocks input (the Long Tasks API's threshold). */
export const LONG_TASK_MS = 50;

/** How long the page is left to start after its load event: this, plus the next per unit of CPU slowdown. */
const START_WAIT_MS = 1_000;
const START_WAIT_PER_SLOWDOWN_MS = 700;
const AFTER_INTERACTION_WAIT_MS = 300;
const AFTER_INTERACTION_WAIT_PER_SLOWDOWN_MS = 250;

/** The trace categories Lighthouse records, less screenshots: enough for its task model and the marks. */
const TRACE_CATEGORIES = [
  '-*',
  'disabled-by-default-lighthouse',
  'loading',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'disabled-by-default-devtools.timeline.frame',
  'latencyInfo',
];
/** JavaScript samples: which of our modules each millisecond of script ran in (they slow the script a little). */
const SAMPLES_CATEGORY = 'disabled-by-default-v8.cpu_profiler';

/** The phone Lighthouse's mobile run emulates (a Moto G Power): its screen and its touch. */
export const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true } as const;

export type WorkKind = 'script' | 'compile' | 'style and layout' | 'parse' | 'rendering' | 'garbage collection' | 'other';

const KIND_OF_GROUP: Record<TaskNode['group']['id'], WorkKind> = {
  scriptEvaluation: 'script',
  scriptParseCompile: 'compile',
  styleLayout: 'style and layout',
  parseHTML: 'parse',
  paintCompositeRender: 'rendering',
  garbageCollection: 'garbage collection',
  other: 'other',
};

export type Phase = 'before first paint' | 'before first interaction' | 'after first interaction' | 'while filling and sending';

export type LongTask = {
  /** Start, in ms since the navigation began. */
  startMs: number;
  durationMs: number;
  phase: Phase;
  /** Self time by kind of work, in ms. */
  work: Partial<Record<WorkKind, number>>;
  /** Our modules the task's script ran in, with their time, largest first (e.g. "react-dom (client-….js) 40 ms"). */
  modules: string[];
  /**
   * Our work in it, in ms: our script run and compiled, and the style and layout a script forced; not
   * the browser's dispatching of an event to our listeners.
   */
  oursMs: number;
};

export type StartupTrace = {
  route: string;
  cpuSlowdown: number;
  firstPaintMs: number;
  hydratedMs: number;
  interactionMs: number;
  /** The slowest event of the first interaction, input to next paint (Event Timing), in ms. */
  interactionLatencyMs: number;
  /** What the interaction was ("typed into the first field", "tapped the menu button"). */
  interaction: string;
  /** With `fillAndSend`, on a page with a form: how the rest of the form was filled in and what the relay answered. */
  sending?: string;
  longTasks: LongTask[];
  /**
   * Startup work of our own scripts until the interaction, in ms: script evaluation and compilation,
   * plus style and layout the scripts forced or caused (inside a script, or in a task attributed to one).
   */
  ourWorkMs: number;
  /** Main-thread time of every task until the interaction, in ms (ours, the browser's and the HTML's). */
  mainThreadMs: number;
};

/** A Chromium trace event, as much of it as the benchmarks read. */
export type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  cat?: string;
  args?: { name?: string; data?: { documentLoaderURL?: string; [key: string]: unknown }; [key: string]: unknown };
};

/** A chunk's name for people: its largest module ("react-dom", "blocks/roi-calculator/…"), with the file. */
export function chunkNamer(clientDir: string): (url: string) => string {
  let chunks: ChunkModules = {};
  try {
    chunks = JSON.parse(readFileSync(path.join(clientDir, CHUNK_MODULES_FILE), 'utf8')) as ChunkModules;
  } catch {
    // Without the build's report a chunk is named by its file alone.
  }
  return (url) => {
    const file = new URL(url).pathname.replace(/^\//, '');
    if (!file.endsWith('.js')) return 'boot loader (inline in the page)';
    const modules = Object.entries(chunks[file] ?? {}).toSorted((a, b) => b[1] - a[1]);
    const largest = modules[0]?.[0];
    if (!largest) return path.basename(file);
    const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(largest)?.[1];
    return `${packageName ?? largest} (${path.basename(file)})`;
  };
}

/**
 * Our part of a task, in ms: everything inside our script (run and compiled, and the style, layout
 * and garbage collection it caused), but not the browser dispatching an event to our listeners (the
 * no-script copy dispatches it too). The pages run no script but ours (their Content-Security-Policy).
 */
function oursIn(task: TaskNode): number {
  let ours = 0;
  const visit = (node: TaskNode, inside: boolean) => {
    const kind = KIND_OF_GROUP[node.group.id];
    const running = inside || kind === 'compile' || (kind === 'script' && node.event.name !== 'EventDispatch');
    if (running) ours += node.selfTime;
    for (const child of node.children) visit(child, running);
  };
  visit(task, false);
  return ours;
}

/** Visits a task and everything inside it, saying whether the node runs inside a script. */
function walk(task: TaskNode, visit: (node: TaskNode, insideScript: boolean) => void, insideScript = false): void {
  visit(task, insideScript);
  const script = insideScript || KIND_OF_GROUP[task.group.id] === 'script';
  for (const child of task.children) walk(child, visit, script);
}

/** Whether a URL is one of the site's scripts or pages (its inline boot loader), not the browser's. */
function isOurs(url: string, origin: string): boolean {
  return url.startsWith(`${origin}/`);
}

/** The script a compile event compiled. */
function compiledUrl(node: TaskNode): string | undefined {
  if (node.group.id !== 'scriptParseCompile') return undefined;
  const args = node.event.args as { fileName?: string; data?: { url?: string } };
  return args.data?.url ?? args.fileName;
}

type Sample = { ts: number; durationUs: number; url: string | undefined };

/**
 * The JavaScript samples of the page's main thread, each with the URL of the innermost of our frames
 * on its stack (undefined when none of ours was running: the browser's own work, idle, GC).
 */
function samplesOf(traceEvents: readonly TraceEvent[], pid: number, tid: number, origin: string): Sample[] {
  const samples: Sample[] = [];
  for (const profile of CpuProfileModel.collectProfileEvents(traceEvents as never)) {
    if (profile.pid !== pid || profile.tid !== tid) continue;
    type ProfileNode = { id: number; parent?: number; callFrame: { url?: string } };
    const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
    const ourUrl = new Map<number, string | undefined>();
    const urlOf = (id: number): string | undefined => {
      if (ourUrl.has(id)) return ourUrl.get(id);
      const node = nodes.get(id);
      const url = node?.callFrame.url;
      const found = url && isOurs(url, origin) ? url : node?.parent === undefined ? undefined : urlOf(node.parent);
      ourUrl.set(id, found);
      return found;
    };
    let ts = profile.startTime;
    const times = profile.timeDeltas.map((delta) => (ts += delta));
    profile.samples.forEach((id, index) => {
      const next = times[index + 1] ?? times[index]!;
      samples.push({ ts: times[index]!, durationUs: Math.min(next - times[index]!, 10_000), url: urlOf(id) });
    });
  }
  return samples.toSorted((a, b) => a.ts - b.ts);
}

/**
 * The trace with its start event naming only the traced page's frame. Tracing records the whole
 * browser, and when another page is open (or still closing) the start event lists its frame too,
 * which the trace model may take for the page's.
 */
function onlyFrame(traceEvents: readonly TraceEvent[], frameId: string | undefined): TraceEvent[] {
  if (!frameId) return [...traceEvents];
  return traceEvents.map((event) => {
    if (event.name !== 'TracingStartedInBrowser') return event;
    const data = (event.args?.data ?? {}) as { frames?: { frame: string }[] };
    return { ...event, args: { ...event.args, data: { ...data, frames: (data.frames ?? []).filter((frame) => frame.frame === frameId) } } };
  });
}

/**
 * The breakdown of one trace. `interactionTs` is the trace time (µs) of the scripted interaction.
 * Pure: the tests feed it recorded traces.
 */
export function analyseTrace(
  traceEvents: readonly TraceEvent[],
  options: {
    origin: string;
    interactionTs?: number;
    /** When the rest of the form began to be filled in, if it was (trace time, µs). */
    sendingTs?: number;
    nameChunk?: (url: string) => string;
    minTaskMs?: number;
    frameId?: string;
  },
): Omit<StartupTrace, 'route' | 'cpuSlowdown' | 'interactionLatencyMs' | 'interaction' | 'sending'> {
  const processed = TraceProcessor.processTrace({ traceEvents: onlyFrame(traceEvents, options.frameId) } as never);
  const navigation = TraceProcessor.processNavigation(processed);
  const startTs = processed.timeOriginEvt.ts;
  const firstPaintTs = navigation.timestamps.firstContentfulPaint;
  const hydrated = processed.mainThreadEvents.find((event: TraceEvent) => event.name === HYDRATED_MARK);
  const endTs = options.interactionTs ?? processed.timestamps.traceEnd;
  const mainThread = processed.mainThreadEvents.find((event: TraceEvent) => event.name === 'RunTask') ?? processed.timeOriginEvt;
  const tasks = MainThreadTasks.getMainThreadTasks(processed.mainThreadEvents, processed.frames, processed.timestamps.traceEnd, startTs);
  const samples = samplesOf(traceEvents, mainThread.pid, mainThread.tid, options.origin);
  const nameChunk = options.nameChunk ?? ((url: string) => path.basename(new URL(url).pathname));
  const ms = (ts: number) => (ts - startTs) / 1000;
  const phaseOf = (ts: number): Phase =>
    ts < firstPaintTs
      ? 'before first paint'
      : options.sendingTs !== undefined && ts >= options.sendingTs
        ? 'while filling and sending'
        : options.interactionTs !== undefined && ts >= options.interactionTs
          ? 'after first interaction'
          : 'before first interaction';
  // Samples are sorted: each task takes the run of them inside it.
  let sampleIndex = 0;
  const samplesIn = (fromTs: number, toTs: number): Sample[] => {
    while (sampleIndex < samples.length && samples[sampleIndex]!.ts < fromTs) sampleIndex++;
    const inside: Sample[] = [];
    for (let index = sampleIndex; index < samples.length && samples[index]!.ts < toTs; index++) inside.push(samples[index]!);
    return inside;
  };

  const longTasks: LongTask[] = [];
  let ourWorkMs = 0;
  let mainThreadMs = 0;
  for (const task of tasks.toSorted((a, b) => a.event.ts - b.event.ts)) {
    if (task.parent || task.event.ts < startTs) continue;
    const taskEndTs = task.event.ts + task.duration * 1000;
    const inside = samplesIn(task.event.ts, taskEndTs);
    const byChunk = new Map<string, number>();
    for (const sample of inside) if (sample.url) byChunk.set(sample.url, (byChunk.get(sample.url) ?? 0) + sample.durationUs / 1000);
    // Compiling shows in no sample: it is named by the script it compiles.
    walk(task, (node) => {
      const url = compiledUrl(node);
      if (url && isOurs(url, options.origin)) byChunk.set(url, (byChunk.get(url) ?? 0) + node.selfTime);
    });
    if (task.event.ts < endTs) {
      mainThreadMs += task.duration;
      // Our work, from the trace's events (always recorded, unlike samples): running and compiling
      // script, and the style and layout a script forced. The page runs no script but ours (its
      // Content-Security-Policy allows no other), and the measuring page asks nothing of it before
      // the interaction.
      walk(task, (node, insideScript) => {
        const kind = KIND_OF_GROUP[node.group.id];
        if (kind === 'script' || kind === 'compile' || (kind === 'style and layout' && insideScript)) ourWorkMs += node.selfTime;
      });
    }
    if (task.duration <= (options.minTaskMs ?? LONG_TASK_MS)) continue;
    const work: LongTask['work'] = {};
    walk(task, (node) => {
      const kind = KIND_OF_GROUP[node.group.id];
      work[kind] = (work[kind] ?? 0) + node.selfTime;
    });
    longTasks.push({
      startMs: ms(task.event.ts),
      durationMs: task.duration,
      phase: phaseOf(task.event.ts),
      work,
      modules: [...byChunk.entries()]
        .filter(([, time]) => time >= 1)
        .toSorted((a, b) => b[1] - a[1])
        .map(([url, time]) => `${nameChunk(url)} ${Math.round(time)} ms`),
      oursMs: oursIn(task),
    });
  }
  return {
    firstPaintMs: ms(firstPaintTs),
    hydratedMs: hydrated ? ms(hydrated.ts) : Number.NaN,
    interactionMs: options.interactionTs === undefined ? Number.NaN : ms(options.interactionTs),
    longTasks,
    ourWorkMs,
    mainThreadMs,
  };
}

/**
 * Runs a small expression in the page through the DevTools protocol. Playwright's own helpers
 * (locators, waitForFunction) inject a large script and poll in the page, which on a slowed CPU
 * shows in the trace as long tasks that are not the site's; this adds only the expression itself.
 */
async function evaluate<T>(cdp: CDPSession, expression: string): Promise<T> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (exceptionDetails) throw new Error(`the page could not evaluate ${expression.slice(0, 60)}: ${exceptionDetails.text}`);
  return result.value as T;
}

/** The centre of the first element matching one of `selectors` that is on screen, and which selector it was. */
const FIND_TARGET = (selectors: readonly string[]) => `(() => {
  for (const selector of ${JSON.stringify(selectors)}) {
    for (const element of document.querySelectorAll(selector)) {
      if (element.getBoundingClientRect().width === 0) continue;
      // A visitor scrolls to the field first (the calculator's is below the fold on a phone).
      element.scrollIntoView({ block: 'center', behavior: 'instant' });
      const box = element.getBoundingClientRect();
      return { selector, x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }
  }
  return null;
})()`;

/**
 * A visitor taps what they scrolled to once they see it: the page has painted it (two frames), and a
 * person's reaction time later. A tap sent in the same instant as the scroll is no visitor's, and
 * makes the browser's own work on the scrolled page part of the tap.
 */
export const REACTION_MS = 200;
const PAINTED = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

type Target = { selector: string; x: number; y: number };

/**
 * Scrolls to the first on-screen match of `selectors`, then taps it as a visitor would, `reactionMs`
 * after it is painted; null when there is none.
 */
async function tapWhenSeen(visitor: Visitor, selectors: readonly string[], reactionMs = REACTION_MS): Promise<Target | null> {
  if (!(await visitor.evaluate<Target | null>(FIND_TARGET(selectors)))) return null;
  await visitor.evaluate(PAINTED);
  await visitor.wait(reactionMs);
  // Where it is now: a layout shift meanwhile would make a tap at the old place miss.
  const target = await visitor.evaluate<Target | null>(FIND_TARGET(selectors));
  if (target) await visitor.tap(target.x, target.y);
  return target;
}

/** The first interaction: typing into the first field of a form or the calculator, else tapping the menu button. */
const FIELD = '[data-island] input:not([type=hidden]):not([type=checkbox]):not([type=radio])';
const MENU = 'header button[aria-expanded]';

async function interact(visitor: Visitor, reactionMs: number): Promise<string> {
  const target = await tapWhenSeen(visitor, [FIELD, MENU], reactionMs);
  if (!target) {
    await visitor.tap(5, 5);
    return 'tapped the page';
  }
  if (target.selector === MENU) return 'tapped the menu button';
  await visitor.type('7');
  return TYPED_INTO_FIELD;
}

/** The bench's visitor in a Playwright page, asking its questions through `cdp` (see `evaluate`). */
function playwrightVisitor(page: Page, cdp: CDPSession): Visitor {
  return {
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    evaluate: (expression) => evaluate(cdp, expression),
    wait: (ms) => page.waitForTimeout(ms),
    tap: (x, y) => page.touchscreen.tap(x, y),
    type: (text) => page.keyboard.type(text),
  };
}

const TYPED_INTO_FIELD = 'typed into the first field';
const NOT_TOUCHED = 'not touched';

/** The required fields of the first form on the page, in order, with what a visitor would put in each. */
const REQUIRED_FIELDS = `(() => {
  const form = document.querySelector('[data-island] form');
  if (!form) return [];
  const fields = [];
  for (const field of form.querySelectorAll('input, select, textarea')) {
    if (!field.required || field.type === 'hidden' || field.type === 'checkbox' || field.closest('[aria-hidden="true"]')) continue;
    const options = field.tagName === 'SELECT' ? [...field.options].map((option) => option.value).filter(Boolean) : [];
    fields.push({ name: field.name, tag: field.tagName.toLowerCase(), type: field.type, placeholder: field.placeholder, min: field.min, options });
  }
  return fields;
})()`;

type RequiredField = { name: string; tag: string; type: string; placeholder: string; min: string; options: string[] };

function visitorValue(field: RequiredField): string {
  if (field.type === 'email') return 'ada@example.com';
  if (field.type === 'tel') return '+1 415 555 0100';
  // The calculator's amounts say what they expect ("e.g. 2000000").
  if (field.type === 'number') return /\d+/.exec(field.placeholder)?.[0] ?? (field.min || '10');
  if (field.tag === 'textarea') return 'Calls after hours go unanswered';
  return /company/i.test(field.name) ? 'Analytical Engines' : 'Ada Lovelace';
}

/**
 * Fills in every required field of the first form as a visitor does (a tap, then keys ~80 ms apart;
 * a choice in each list), taps its send button and waits for the relay's answer. Returns what was done.
 */
async function fillAndSend(page: Page, cdp: CDPSession, send: boolean): Promise<string> {
  const visitor = playwrightVisitor(page, cdp);
  const fields = await evaluate<RequiredField[]>(cdp, REQUIRED_FIELDS);
  const formSelector = '[data-island] form';
  for (const field of fields) {
    const selector = `${formSelector} [name="${field.name}"]`;
    if (field.tag === 'select') {
      // A phone shows its own picker, which a script cannot tap: the choice is made as the picker makes it.
      await evaluate(
        cdp,
        `(() => { const list = document.querySelector(${JSON.stringify(selector)}); list.value = ${JSON.stringify(field.options[0] ?? '')}; list.dispatchEvent(new Event('change', { bubbles: true })); })()`,
      );
      continue;
    }
    if (!(await tapWhenSeen(visitor, [selector]))) continue;
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(visitorValue(field), { delay: 80 });
  }
  if (!send) {
    await page.waitForTimeout(AFTER_INTERACTION_WAIT_MS);
    return `filled in its ${fields.length} required fields as a visitor types, not sent`;
  }
  const sendButton = `${formSelector} [type="submit"]`;
  if (!(await evaluate<Target | null>(cdp, FIND_TARGET([sendButton])))) return `filled in ${fields.length} fields; no send button`;
  const answer = page
    // The lead's own request (a beacon is a POST too).
    .waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/leads', {
      timeout: 30_000,
    })
    .then(
      (response) => `the relay answered ${response.status()}`,
      () => 'nothing was sent within 30 s',
    );
  await tapWhenSeen(visitor, [sendButton]);
  const outcome = await answer;
  // What the answer starts (the result, the thank-you page, a message) is traced too.
  await page.waitForTimeout(AFTER_INTERACTION_WAIT_MS + 1_000);
  return `filled in its ${fields.length} required fields as a visitor types, tapped send; ${outcome}`;
}

async function stopTracing(tracing: CDPSession): Promise<TraceEvent[]> {
  const complete = new Promise<string>((resolve) => tracing.once('Tracing.tracingComplete', ({ stream }) => resolve(stream ?? '')));
  await tracing.send('Tracing.end');
  const stream = await complete;
  let text = '';
  for (;;) {
    const chunk = await tracing.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await tracing.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** Event Timing: each interaction's latency from input to the next paint, as INP counts it. */
const OBSERVE_INTERACTIONS = `(() => {
  const latencies = (window.__interactionLatencies = []);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.interactionId) latencies.push(entry.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
})()`;

type TraceOptions = {
  cpuSlowdown: number;
  /** Names a chunk for the tables; without it, chunks go by file name. */
  nameChunk?: (url: string) => string;
  minTaskMs?: number;
  /** Whether to sample the JavaScript, which names the modules in each long task (default true). */
  samples?: boolean;
  /** After the first interaction in a form, fill in the rest of it as a visitor types, and send it. */
  fillAndSend?: boolean;
  /** With `fillAndSend`, false leaves the filled-in form unsent (a send without script is a page load). */
  send?: boolean;
  /** Writes the raw trace to this file as well (DevTools opens it). */
  saveTo?: string | undefined;
  /**
   * False stops the trace once the page has started, without touching it: the startup work is then
   * all there is (the budget test), and the interaction's time and latency are NaN.
   */
  interact?: boolean;
  /**
   * How long after the field (or the menu button) it scrolled to is painted the visitor taps it
   * (default REACTION_MS, a quick visitor). A form brought near hydrates once the visitor pauses
   * (FORM_PAUSE_MS), so a longer one (4,000 ms at 16×) taps the hydrated form instead.
   */
  reactionMs?: number;
};

/**
 * Loads `url` in a new phone-sized page with the CPU slowed `cpuSlowdown` times, traces it until it is
 * quiet, interacts once (unless `interact` is false) and analyses the trace.
 */
export async function traceStartup(browser: Browser, url: string, options: TraceOptions): Promise<StartupTrace> {
  // Now and then a trace comes back without the page's navigation in it (the browser moved the page
  // to a new renderer before its events were recorded): the page is traced again, up to three times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await traceOnce(browser, url, options);
    } catch (error) {
      if (attempt >= 3 || !/navigationStart|tracingStartedInBrowser/i.test((error as Error).message)) throw error;
    }
  }
}

/** A phone-sized page with the CPU slowed `cpuSlowdown` times, whose interactions Event Timing records. */
async function phonePage(browser: Browser, cpuSlowdown: number) {
  const context = await browser.newContext({ ...PHONE });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  await cdp.send('Page.enable');
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: OBSERVE_INTERACTIONS });
  return { context, page, cdp, visitor: playwrightVisitor(page, cdp) };
}

/**
 * Loads `url` as a visitor would and waits, asking nothing of the page, for it to start (to hydrate
 * what is on screen, send its beacon and load its field-speed code at this slowdown); checked once after.
 */
async function loadAndStart(visitor: Visitor, url: string, cpuSlowdown: number): Promise<void> {
  await visitor.goto(url);
  const waitMs = START_WAIT_MS + START_WAIT_PER_SLOWDOWN_MS * cpuSlowdown;
  await visitor.wait(waitMs);
  const started = await visitor.evaluate<boolean>(
    "!document.getElementById('boot-modules') || document.documentElement.dataset.hydrated === 'true'",
  );
  if (!started) throw new Error(`${url} had not started ${waitMs} ms after its load event`);
}

/** Long enough for what the interaction starts to happen: a form hydrates once the visitor pauses, ~1 s at 4×. */
const afterInteractionWaitMs = (cpuSlowdown: number) =>
  FORM_PAUSE_MS + AFTER_INTERACTION_WAIT_MS + AFTER_INTERACTION_WAIT_PER_SLOWDOWN_MS * cpuSlowdown;

/**
 * The first interaction's latency as a phone without DevTools open gets it: the page is loaded and
 * touched as `traceStartup` does, in a browser driven without a trace and without the Runtime domain
 * (`bare-browser.ts`), and Event Timing alone measures the tap and key. A trace samples the JavaScript
 * every 0.1 ms, which slows the page's script and not the browser's own work for a tap; the Runtime
 * domain makes V8 parse React DOM twice as it is evaluated. Either would overstate what script adds.
 */
export async function untracedInteraction(
  browser: BareBrowser,
  url: string,
  options: { cpuSlowdown: number; reactionMs?: number },
): Promise<{ interaction: string; latencyMs: number }> {
  const page = await browser.newPage({
    cpuSlowdown: options.cpuSlowdown,
    viewport: PHONE.viewport,
    deviceScaleFactor: PHONE.deviceScaleFactor,
    initScript: OBSERVE_INTERACTIONS,
  });
  try {
    await loadAndStart(page, url, options.cpuSlowdown);
    const interaction = await interact(page, options.reactionMs ?? REACTION_MS);
    await page.wait(afterInteractionWaitMs(options.cpuSlowdown));
    const latencies = await page.evaluate<number[]>('window.__interactionLatencies');
    return { interaction, latencyMs: Math.max(0, ...latencies) };
  } finally {
    await page.close();
  }
}

async function traceOnce(browser: Browser, url: string, options: TraceOptions): Promise<StartupTrace> {
  const { context, page, cdp, visitor } = await phonePage(browser, options.cpuSlowdown);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    // Sampling every 0.1 ms (Lighthouse's setting) so a few ms of script still name their module.
    await cdp.send('Tracing.start', {
      categories: [...TRACE_CATEGORIES, ...(options.samples === false ? [] : [SAMPLES_CATEGORY])].join(','),
      options: 'sampling-frequency=10000',
      transferMode: 'ReturnAsStream',
    });
    // Nothing is asked of the page while it starts (a question is script on its main thread too).
    await loadAndStart(visitor, url, options.cpuSlowdown);
    const interactionAt = await evaluate<number>(cdp, 'performance.now()');
    const interaction = options.interact === false ? NOT_TOUCHED : await interact(visitor, options.reactionMs ?? REACTION_MS);
    // What the interaction starts is traced too.
    if (interaction !== NOT_TOUCHED) await page.waitForTimeout(afterInteractionWaitMs(options.cpuSlowdown));
    const latencies = interaction === NOT_TOUCHED ? [] : await evaluate<number[]>(cdp, 'window.__interactionLatencies');
    let sendingAt: number | undefined;
    let sending: string | undefined;
    if (options.fillAndSend && interaction === TYPED_INTO_FIELD) {
      sendingAt = await evaluate<number>(cdp, 'performance.now()');
      sending = await fillAndSend(page, cdp, options.send ?? true);
    }
    const traceEvents = await stopTracing(cdp);
    if (options.saveTo) {
      mkdirSync(path.dirname(options.saveTo), { recursive: true });
      writeFileSync(options.saveTo, JSON.stringify({ traceEvents }));
    }
    // performance.now() counts from the navigation's start, which the trace marks with navigationStart.
    const navigationStart = traceEvents.findLast(
      (event) => event.name === 'navigationStart' && event.args?.data?.documentLoaderURL === url,
    );
    const analysed = analyseTrace(traceEvents, {
      origin: new URL(url).origin,
      interactionTs: navigationStart ? navigationStart.ts + interactionAt * 1000 : undefined,
      sendingTs: navigationStart && sendingAt !== undefined ? navigationStart.ts + sendingAt * 1000 : undefined,
      nameChunk: options.nameChunk,
      minTaskMs: options.minTaskMs,
      frameId: frameTree.frame.id,
    });
    return {
      route: new URL(url).pathname,
      cpuSlowdown: options.cpuSlowdown,
      interaction,
      interactionLatencyMs: interaction === NOT_TOUCHED ? Number.NaN : Math.max(0, ...latencies),
      ...(sending && { sending }),
      ...analysed,
      // Untouched, the trace still ends where the interaction would have come (the work is counted until then).
      ...(interaction === NOT_TOUCHED && { interactionMs: Number.NaN }),
    };
  } finally {
    await context.close();
  }
}

/** The middle value (the lower of the two middle ones for an even count); NaN for none. */
function middle(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).toSorted((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Blocking time after the first paint: what each long task holds beyond 50 ms, as TBT counts it,
 * until the form is filled in (which the no-script copy it is compared with is not).
 */
export function blockingAfterPaintMs(trace: StartupTrace): number {
  return trace.longTasks
    .filter((task) => task.phase !== 'before first paint' && task.phase !== 'while filling and sending')
    .reduce((sum, task) => sum + Math.max(0, task.durationMs - LONG_TASK_MS), 0);
}

/** The run whose blocking time after the first paint is the median of the runs: its long tasks are shown. */
export function medianTrace(traces: readonly StartupTrace[]): StartupTrace {
  const sorted = traces.toSorted((a, b) => blockingAfterPaintMs(a) - blockingAfterPaintMs(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Whether a task ran script. The pages run no script but ours (their Content-Security-Policy allows no
 * other), and the bench's own questions to the page are well under this; so a task with script in it
 * whose samples are missing (a long trace's profile can stop before the trace does) is still ours.
 */
function runsScript(task: LongTask): boolean {
  return task.modules.length > 0 || task.oursMs >= 5;
}

/**
 * The long tasks while the form was filled in and sent: how many ran our script, and how many only our
 * script made long (under 50 ms without our part of it). The rest are long with the browser's work
 * alone: for a tap, hit testing, focus and the frame it draws first (restyling what changed since the
 * last one, which can be what our script changed earlier); the no-script copy, filled in the same
 * way, shows what the browser's own taps cost on the host.
 */
export function longTasksWhileSending(trace: StartupTrace): { count: number; ours: number; madeLongByUs: number; longestMs: number } {
  const tasks = trace.longTasks.filter((task) => task.phase === 'while filling and sending');
  return {
    count: tasks.length,
    ours: tasks.filter(runsScript).length,
    madeLongByUs: tasks.filter((task) => task.durationMs - task.oursMs <= LONG_TASK_MS).length,
    longestMs: Math.max(0, ...tasks.map((task) => task.durationMs)),
  };
}

function fillAndSendSentence(trace: StartupTrace, runs: readonly StartupTrace[], noScriptCopy: readonly StartupTrace[]): string {
  const { count, ours, madeLongByUs, longestMs } = longTasksWhileSending(trace);
  const sent = runs.filter((run) => run.sending).map(longTasksWhileSending);
  const filledCopies = noScriptCopy.filter((run) => run.sending).map(longTasksWhileSending);
  const longestOf = (all: { longestMs: number }[]) => Math.round(Math.max(0, ...all.map((run) => run.longestMs)));
  return (
    `Then the form was ${trace.sending}. While it was filled in and sent: ${count === 0 ? 'no task over 50 ms' : `${count} task${count === 1 ? '' : 's'} over 50 ms (${ours} with our script), the longest ${Math.round(longestMs)} ms; ${madeLongByUs === 0 ? 'none' : madeLongByUs} made long by our script (under 50 ms without our part of it)`}` +
    ` (in each run, tasks over 50 ms: ${sent.map((run) => run.count).join(', ')}; made long by our script: ${sent.map((run) => run.madeLongByUs).join(', ')}; the longest in any run ${longestOf(sent)} ms).` +
    (filledCopies.length > 0
      ? ` The copy with every script removed, filled in the same way (not sent: without script a send is a page load): tasks over 50 ms in each run ${filledCopies.map((run) => run.count).join(', ')}, the longest in any run ${longestOf(filledCopies)} ms.`
      : '')
  );
}

const KINDS = ['script', 'compile', 'style and layout', 'parse', 'rendering', 'garbage collection', 'other'] as const;

/** The first interaction's latency in each run timed as a phone gets it (`untracedInteraction`), ours and the copy's. */
export type UntracedLatencies = { ours: readonly number[]; copy: readonly number[] };

function untracedSentence({ ours, copy }: UntracedLatencies, round: (ms: number) => string): string {
  const runsOf = (latencies: readonly number[]) => `runs: ${latencies.map((ms) => Math.round(ms)).join(', ')} ms`;
  return (
    `Timed again as a phone without DevTools open gets it (no trace, whose JavaScript sampling slows our script and not the browser's own work, ` +
    `and no DevTools Runtime domain, under which V8 parses React DOM twice), the same interaction answered in ${round(middle(ours))} (median; ${runsOf(ours)})` +
    (copy.length > 0 ? `; the copy with every script removed in ${round(middle(copy))} (${runsOf(copy)}).` : '.')
  );
}

/**
 * One route at one CPU slowdown: its figures, then its long tasks, as Markdown. `untraced` adds the
 * first interaction timed again as a phone without DevTools open gets it.
 */
export function formatBreakdown(
  trace: StartupTrace,
  runs: readonly StartupTrace[],
  noScriptCopy: readonly StartupTrace[] = [],
  untraced?: UntracedLatencies,
): string {
  const round = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms).toLocaleString('en')} ms` : 'n/a');
  const lines = [
    `#### \`${trace.route}\` at ${trace.cpuSlowdown}× CPU`,
    '',
    `First paint ${round(trace.firstPaintMs)}, hydrated ${round(trace.hydratedMs)}. First interaction (${trace.interaction}) answered in ` +
      `${round(trace.interactionLatencyMs)} (median of the runs ${round(middle(runs.map((run) => run.interactionLatencyMs)))}). ` +
      `Our startup work ${round(trace.ourWorkMs)} of ${round(trace.mainThreadMs)} on the main thread; blocking time after the first paint ` +
      `${round(blockingAfterPaintMs(trace))} (runs: ${runs.map((run) => Math.round(blockingAfterPaintMs(run))).join(', ')} ms).`,
    ...(noScriptCopy.length > 0
      ? [
          '',
          `The same page with every script removed, touched the same way: first interaction answered in ` +
            `${round(middle(noScriptCopy.map((run) => run.interactionLatencyMs)))}, blocking time after the first paint ` +
            `${round(middle(noScriptCopy.map(blockingAfterPaintMs)))} (medians).`,
        ]
      : []),
    ...(untraced && untraced.ours.length > 0 ? ['', untracedSentence(untraced, round)] : []),
    ...(trace.sending ? ['', fillAndSendSentence(trace, runs, noScriptCopy)] : []),
    '',
  ];
  if (trace.longTasks.length === 0) return [...lines, 'No task over 50 ms.'].join('\n');
  lines.push(
    '| Start | Length | When | Script | Compile | Style, layout | Parse | Rendering | Other | Our modules in it |',
    '|--:|--:|---|--:|--:|--:|--:|--:|--:|---|',
  );
  for (const task of trace.longTasks) {
    const [script, compile, style, parse, rendering, gc, other] = KINDS.map((kind) => task.work[kind] ?? 0);
    lines.push(
      `| ${round(task.startMs)} | ${round(task.durationMs)} | ${task.phase} | ${Math.round(script!)} | ${Math.round(compile!)} | ` +
        `${Math.round(style!)} | ${Math.round(parse!)} | ${Math.round(rendering!)} | ${Math.round(other! + gc!)} | ` +
        `${task.modules.join('; ') || (runsScript(task) ? 'script of ours, not sampled' : "none (the browser's own work)")} |`,
    );
  }
  return lines.join('\n');
}
