// `npm run bench:pages`: Lighthouse over every prerendered route of a build, mobile and desktop, with
// the system Chromium. Per route and form factor: one warm-up run, then the median of five of the
// performance score, LCP, TBT, CLS, transfer bytes and the longest main-thread task up to the end of
// hydration (the `hydrated` user-timing mark, read from the trace). Serves the build with our own
// server on 127.0.0.1 (nothing else is contacted) and prints a Markdown table.
//
//   npm run bench:pages -- [--dist dist] [--runs 5] [--routes /,/about] [--form-factors mobile,desktop] [--write-docs]
//                          [--compare-no-script] [--cpu 4] [--as-host-index 1300] [--breakdown] [--breakdown-cpu 4,16]
//                          [--reaction-ms 200]
//
// --write-docs replaces the table between the bench markers in docs/performance.md.
// --compare-no-script also measures every route on a copy of the build whose pages have no script at
// all (the physical limit for that content) and prints, per route, the score as a share of the
// copy's and the TBT above it, against the targets: at least 97 % of the score, at most 100 ms more.
// --cpu (or --cpu-slowdown) sets Lighthouse's CPU throttling multiplier (mobile default 4): on a fast
// host, a higher one shows the main-thread work a slow phone would see.
// --as-host-index N runs as a host whose Lighthouse benchmark index is N would: Lighthouse times a
// trace taken on this host and multiplies every task by the CPU multiplier, so the multiplier is
// scaled by this host's index over N (2,400 here and N = 1,300 gives 4 × 1.85 = 7.4).
// --breakdown also traces every route on a phone-sized page at each --breakdown-cpu slowdown
// (default 4 and 16; the network unthrottled) and prints, per route, the long tasks of the median
// run: what ran (script, style and layout, parsing), which of our modules, before or after the first
// paint and the first interaction (scripts/bench/startup-trace.ts); at 4× a page's form is then filled
// in and sent as a visitor would, and its long tasks meanwhile are listed too. --write-docs writes those tables
// too. --reaction-ms (default 200) is how long after the field or menu button it scrolled to shows
// the visitor taps it: a form brought near hydrates once the visitor pauses, so 4000 at 16× taps the
// hydrated form.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Flags, type Result } from 'lighthouse';
import { HYDRATED_MARK } from '../../ui/page/page-markers.ts';
import { readRoutesFile } from '../../content-model/load/build-files.ts';
import { makeNoScriptCopy } from './no-script-copy.ts';
import {
  type TraceEvent,
  blockingAfterPaintMs,
  chunkNamer,
  formatBreakdown,
  medianTrace,
  REACTION_MS,
  PHONE,
  traceStartup,
  untracedInteraction,
  type StartupTrace,
} from './startup-trace.ts';
import { chromium } from 'playwright-core';
import { launchBareBrowser } from './bare-browser.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];
const FORM_FACTORS = ['mobile', 'desktop'] as const;
type FormFactor = (typeof FORM_FACTORS)[number];
const DOCS_FILE = path.join(root, 'docs/performance.md');
/** The slowdown at which a page's form is also filled in and sent (a slow phone's must never block for over 50 ms). */
const FILL_AND_SEND_CPU = 4;

const DOCS_START = '<!-- bench:pages:start -->';
const DOCS_END = '<!-- bench:pages:end -->';
const BREAKDOWN_START = '<!-- bench:breakdown:start -->';
const BREAKDOWN_END = '<!-- bench:breakdown:end -->';
const COMPARE_START = '<!-- bench:no-script:start -->';
const COMPARE_END = '<!-- bench:no-script:end -->';
const SERVER_START_TIMEOUT_MS = 20_000;

export type RunMetrics = {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  transferBytes: number;
  longestHydrationTaskMs: number;
  /** Lighthouse's measure of how fast this host is (higher is faster): figures compare only at similar values. */
  benchmarkIndex: number;
};

/**
 * The longest top-level task on the page's main thread from navigation until the app marked itself
 * hydrated. The page's renderer is found through the mark itself (site isolation gives the page a
 * different process than the about:blank Lighthouse starts from).
 */
export function longestHydrationTaskMs(events: readonly TraceEvent[]): number {
  const hydrated = events.find((e) => e.name === HYDRATED_MARK && e.cat?.includes('blink.user_timing'));
  if (!hydrated) return Number.NaN;
  const onPageThread = (e: TraceEvent) => e.pid === hydrated.pid && e.tid === hydrated.tid;
  const navigation = events
    .filter(
      (e) =>
        onPageThread(e) && e.name === 'navigationStart' && e.ts <= hydrated.ts && /^https?:/.test(e.args?.data?.documentLoaderURL ?? ''),
    )
    .at(-1);
  if (!navigation) return Number.NaN;
  let longestUs = 0;
  for (const e of events) {
    if (!onPageThread(e) || e.ph !== 'X' || e.name !== 'RunTask' || e.dur === undefined) continue;
    if (e.ts + e.dur < navigation.ts || e.ts > hydrated.ts) continue;
    longestUs = Math.max(longestUs, e.dur);
  }
  return longestUs / 1000;
}

export function metricsOf(lhr: Result, trace: readonly TraceEvent[]): RunMetrics {
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    transferBytes: value('total-byte-weight'),
    longestHydrationTaskMs: longestHydrationTaskMs(trace),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  };
}

export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).toSorted((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function medianMetrics(runs: readonly RunMetrics[]): RunMetrics {
  const of = (key: keyof RunMetrics) => median(runs.map((run) => run[key]));
  return {
    score: of('score'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    cls: of('cls'),
    transferBytes: of('transferBytes'),
    longestHydrationTaskMs: of('longestHydrationTaskMs'),
    benchmarkIndex: of('benchmarkIndex'),
  };
}

export type Row = { route: string; formFactor: FormFactor; metrics: RunMetrics };

export function formatTable(rows: readonly Row[]): string {
  const lines = [
    '| Route | Form factor | Score | LCP | TBT | CLS | Transfer | Longest task to hydrated |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const { route, formFactor, metrics: m } of rows) {
    lines.push(
      `| \`${route}\` | ${formFactor} | ${m.score} | ${(m.lcpMs / 1000).toFixed(2)} s | ${Math.round(m.tbtMs)} ms | ${m.cls.toFixed(3)} | ${(m.transferBytes / 1024).toFixed(0)} KB | ${Number.isFinite(m.longestHydrationTaskMs) ? `${Math.round(m.longestHydrationTaskMs)} ms` : 'n/a'} |`,
    );
  }
  return lines.join('\n');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startSite(distDir: string, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.join(root, 'server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DIST_DIR: distDir,
      LOG_LEVEL: 'warn',
      LEADS_DB_FILE: path.join(root, '.tmp', `bench-leads-${port}.sqlite`),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not become healthy');
}

/** Targets for a route against its no-script copy, measured in the same run. */
export const NO_SCRIPT_TARGETS = { minScoreShare: 0.97, maxExtraTbtMs: 100 } as const;

export type Comparison = { route: string; formFactor: FormFactor; withScripts: RunMetrics; noScript: RunMetrics };

export function formatComparison(rows: readonly Comparison[]): string {
  const lines = [
    '| Route | Form factor | Score | No-script score | Share | TBT | No-script TBT | TBT above | Targets met |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const { route, formFactor, withScripts: w, noScript: n } of rows) {
    const share = w.score / n.score;
    const extraTbtMs = w.tbtMs - n.tbtMs;
    const met = share >= NO_SCRIPT_TARGETS.minScoreShare && extraTbtMs <= NO_SCRIPT_TARGETS.maxExtraTbtMs;
    lines.push(
      `| \`${route}\` | ${formFactor} | ${w.score} | ${n.score} | ${(share * 100).toFixed(1)} % | ${Math.round(w.tbtMs)} ms | ${Math.round(n.tbtMs)} ms | ${Math.round(extraTbtMs)} ms | ${met ? 'yes' : 'no'} |`,
    );
  }
  return lines.join('\n');
}

async function measure(url: string, flags: Flags, config: Config | undefined, runs: number): Promise<RunMetrics> {
  const measured: RunMetrics[] = [];
  // The first run warms the server's and the OS's caches; it is not counted.
  for (let run = 0; run <= runs; run++) {
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const trace = (result.artifacts.Trace?.traceEvents ?? []) as TraceEvent[];
    if (run > 0) measured.push(metricsOf(result.lhr, trace));
  }
  return medianMetrics(measured);
}

/** Replaces the text between two markers in docs/performance.md. */
function writeBetween(startMarker: string, endMarker: string, text: string): void {
  const docs = readFileSync(DOCS_FILE, 'utf8');
  const start = docs.indexOf(startMarker);
  const end = docs.indexOf(endMarker);
  if (start === -1 || end === -1) throw new Error(`${DOCS_FILE} needs the markers ${startMarker} and ${endMarker}`);
  writeFileSync(DOCS_FILE, `${docs.slice(0, start + startMarker.length)}\n${text}\n${docs.slice(end)}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string', default: process.env.DIST_DIR ?? 'dist' },
      runs: { type: 'string', default: '5' },
      routes: { type: 'string' },
      'form-factors': { type: 'string', default: FORM_FACTORS.join(',') },
      'write-docs': { type: 'boolean', default: false },
      'compare-no-script': { type: 'boolean', default: false },
      'cpu-slowdown': { type: 'string' },
      cpu: { type: 'string' },
      'as-host-index': { type: 'string' },
      breakdown: { type: 'boolean', default: false },
      'breakdown-cpu': { type: 'string', default: '4,16' },
      'breakdown-only': { type: 'boolean', default: false },
      'save-traces': { type: 'boolean', default: false },
      'reaction-ms': { type: 'string', default: String(REACTION_MS) },
    },
  });
  const distDir = path.resolve(root, values.dist);
  const runs = Number(values.runs);
  const routesFile = readRoutesFile(distDir);
  const routes = values.routes ? values.routes.split(',') : Object.keys(routesFile.pages).sort();
  const formFactors = values['form-factors'].split(',') as FormFactor[];
  const cpuOption = values.cpu ?? values['cpu-slowdown'];
  const reactionMs = Number(values['reaction-ms']);
  if (!Number.isFinite(reactionMs) || reactionMs < 0)
    throw new Error(`--reaction-ms must be a number of milliseconds, not "${values['reaction-ms']}"`);

  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const port = await freePort();
  const server = await startSite(distDir, port);
  const compare = values['compare-no-script'];
  const noScriptPort = compare ? await freePort() : 0;
  const noScriptServer = compare ? await startSite(prepareNoScriptCopy(distDir), noScriptPort) : undefined;
  const comparisons: Comparison[] = [];
  const rows: Row[] = [];
  const breakdowns: string[] = [];
  let cpuNote = cpuOption ? `, CPU slowdown ${cpuOption}×` : '';
  try {
    if (!values['breakdown-only']) {
      const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
      try {
        let cpuSlowdown = cpuOption ? Number(cpuOption) : undefined;
        if (values['as-host-index']) {
          // One unthrottled-default run tells this host's index; the multiplier makes it the slower host.
          const probe = await lighthouse(`http://127.0.0.1:${port}/`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
          });
          const hostIndex = probe?.lhr.environment?.benchmarkIndex ?? Number.NaN;
          const target = Number(values['as-host-index']);
          cpuSlowdown = Math.round((cpuSlowdown ?? 4) * (hostIndex / target) * 100) / 100;
          cpuNote = `, CPU slowdown ${cpuSlowdown}× (${cpuOption ?? 4}× as on a host of benchmark index ${target}; this host's is ${Math.round(hostIndex)})`;
        }
        for (const formFactor of formFactors) {
          const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
          const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
          if (cpuSlowdown) flags.throttling = { cpuSlowdownMultiplier: cpuSlowdown };
          for (const route of routes) {
            const metrics = await measure(`http://127.0.0.1:${port}${route}`, flags, config, runs);
            rows.push({ route, formFactor, metrics });
            if (compare) {
              const noScript = await measure(`http://127.0.0.1:${noScriptPort}${route}`, flags, config, runs);
              comparisons.push({ route, formFactor, withScripts: metrics, noScript });
            }
            console.error(
              `${formFactor.padEnd(7)} ${route.padEnd(58)} score ${metrics.score}  LCP ${Math.round(metrics.lcpMs)} ms  TBT ${Math.round(metrics.tbtMs)} ms  CLS ${metrics.cls.toFixed(3)}`,
            );
          }
        }
      } finally {
        chrome.kill();
      }
    }
    if (values.breakdown || values['breakdown-only']) {
      const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? CHROMIUM_PATH, args: CHROMIUM_FLAGS });
      // The first interaction is timed again in a browser without DevTools' Runtime domain (see untracedInteraction).
      const bare = await launchBareBrowser();
      const nameChunk = chunkNamer(path.join(distDir, 'client'));
      try {
        for (const cpuSlowdown of values['breakdown-cpu'].split(',').map(Number)) {
          for (const route of routes) {
            const traced: StartupTrace[] = [];
            for (let run = 0; run < runs; run++)
              traced.push(
                await traceStartup(browser, `http://127.0.0.1:${port}${route}`, {
                  cpuSlowdown,
                  nameChunk,
                  fillAndSend: cpuSlowdown === FILL_AND_SEND_CPU,
                  reactionMs,
                  saveTo: values['save-traces'] ? traceFile(route, cpuSlowdown, run) : undefined,
                }),
              );
            const shown = medianTrace(traced);
            // The same page with no script, touched the same way: the limit for this host and slowdown.
            const copy: StartupTrace[] = [];
            if (compare)
              for (let run = 0; run < runs; run++)
                copy.push(
                  await traceStartup(browser, `http://127.0.0.1:${noScriptPort}${route}`, {
                    cpuSlowdown,
                    nameChunk,
                    fillAndSend: cpuSlowdown === FILL_AND_SEND_CPU,
                    send: false,
                    reactionMs,
                    saveTo: values['save-traces'] ? traceFile(route, cpuSlowdown, run, 'no-script') : undefined,
                  }),
                );
            // The first interaction again with no trace running, ours and the copy's in turns, so both
            // meet the host in the same state: the figure a phone gets.
            const untraced = { ours: [] as number[], copy: [] as number[] };
            for (let run = 0; run < runs; run++) {
              const options = { cpuSlowdown, reactionMs };
              untraced.ours.push((await untracedInteraction(bare, `http://127.0.0.1:${port}${route}`, options)).latencyMs);
              if (compare)
                untraced.copy.push((await untracedInteraction(bare, `http://127.0.0.1:${noScriptPort}${route}`, options)).latencyMs);
            }
            breakdowns.push(formatBreakdown(shown, traced, copy, untraced));
            console.error(
              `trace ${String(cpuSlowdown).padStart(2)}× ${route.padEnd(58)} blocking after paint ${Math.round(blockingAfterPaintMs(shown))} ms  first interaction ${Math.round(shown.interactionLatencyMs)} ms (${Math.round(median(untraced.ours))} ms untraced)  our work ${Math.round(shown.ourWorkMs)} ms` +
                (compare
                  ? `  (no-script copy: blocking ${Math.round(median(copy.map(blockingAfterPaintMs)))} ms, first interaction ${Math.round(median(copy.map((run) => run.interactionLatencyMs)))} ms, ${Math.round(median(untraced.copy))} ms untraced)`
                  : ''),
            );
          }
        }
      } finally {
        await browser.close();
        await bare.close();
      }
    }
  } finally {
    server.kill('SIGTERM');
    noScriptServer?.kill('SIGTERM');
  }

  const lighthouseVersion = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version;
  const benchmarkIndex = Math.round(median(rows.map((row) => row.metrics.benchmarkIndex)));
  const date = new Date().toISOString().slice(0, 10);
  const stamp = `Host benchmark index ${benchmarkIndex} (Lighthouse's; higher is faster). Measured ${date} with Lighthouse ${lighthouseVersion}, Chromium at ${process.env.CHROME_PATH ?? CHROMIUM_PATH}, median of ${runs} runs after one warm-up${cpuNote}.`;
  if (rows.length > 0) {
    const table = formatTable(rows);
    console.log(`${stamp}\n\n${table}`);
    writeFileSync(path.join(root, '.tmp', 'bench-pages.json'), `${JSON.stringify(rows, null, 2)}\n`);
    if (values['write-docs'] && !compare) writeBetween(DOCS_START, DOCS_END, `${stamp}\n\n${table}`);
  }
  if (comparisons.length > 0) {
    const comparison = formatComparison(comparisons);
    console.log(`\nAgainst the same pages with every script removed (same run):\n\n${comparison}`);
    if (values['write-docs']) writeBetween(COMPARE_START, COMPARE_END, `${stamp}\n\n${comparison}`);
  }
  if (breakdowns.length > 0) {
    const text = `Traced ${date} on this host (Lighthouse benchmark index ${Number.isFinite(benchmarkIndex) ? benchmarkIndex : 'not measured in this run'}), Chromium at ${process.env.CHROME_PATH ?? CHROMIUM_PATH}, a ${PHONE.viewport.width}×${PHONE.viewport.height} phone page, the network unthrottled, ${runs} runs per route and slowdown, the first field or menu button tapped ${reactionMs} ms after it was painted; the run shown is the median by blocking time after the first paint. Times in ms.\n\n${breakdowns.join('\n\n')}`;
    console.log(`\n${text}`);
    if (values['write-docs']) writeBetween(BREAKDOWN_START, BREAKDOWN_END, text);
  }
}

/** Where `--save-traces` writes a run's trace, to open in the browser's DevTools (Performance, "Load profile"). */
function traceFile(route: string, cpuSlowdown: number, run: number, copy?: 'no-script'): string {
  const name = route.replace(/^\/$/, 'home').replace(/^\//, '').replaceAll('/', '_');
  return path.join(root, '.tmp', 'traces', `${name}-${cpuSlowdown}x${copy ? `-${copy}` : ''}-run${run + 1}.json`);
}

/** The no-script copy of the build, in .tmp/ (made afresh each run). */
function prepareNoScriptCopy(distDir: string): string {
  const copyDir = path.join(root, '.tmp', 'bench-no-script-dist');
  const pages = makeNoScriptCopy(distDir, copyDir);
  console.error(`no-script copy: ${pages} pages without scripts in ${path.relative(root, copyDir)}`);
  return copyDir;
}

if (import.meta.main) await main();
