import { describe, expect, it } from 'vitest';
import {
  blockingAfterPaintMs,
  formatBreakdown,
  longTasksWhileSending,
  medianTrace,
  type LongTask,
  type StartupTrace,
} from './startup-trace.ts';

const task = (durationMs: number, phase: LongTask['phase'], modules: string[] = []): LongTask => ({
  startMs: 1_000,
  durationMs,
  phase,
  // A task running our modules is script; one without is the browser styling and laying out the page.
  work: modules.length > 0 ? { script: durationMs - 5, other: 5 } : { 'style and layout': durationMs - 5, other: 5 },
  modules,
  oursMs: modules.length > 0 ? durationMs - 5 : 0,
});

const trace = (longTasks: LongTask[], interactionLatencyMs = 80): StartupTrace => ({
  route: '/calculator',
  cpuSlowdown: 4,
  firstPaintMs: 500,
  hydratedMs: 1_200,
  interactionMs: 2_000,
  interactionLatencyMs,
  interaction: 'typed into the first field',
  longTasks,
  ourWorkMs: 300,
  mainThreadMs: 1_400,
});

describe('the startup breakdown', () => {
  it('counts blocking time as TBT does, after the first paint only', () => {
    // 120 ms before the paint is the browser parsing the page: not counted. 80 → 30, 60 → 10.
    expect(
      blockingAfterPaintMs(
        trace([task(120, 'before first paint'), task(80, 'before first interaction'), task(60, 'after first interaction')]),
      ),
    ).toBe(40);
    expect(blockingAfterPaintMs(trace([]))).toBe(0);
  });

  it('shows the run in the middle by blocking time', () => {
    const runs = [trace([task(200, 'before first interaction')]), trace([]), trace([task(90, 'before first interaction')])];
    expect(medianTrace(runs)).toBe(runs[2]);
  });

  it('prints each long task with what ran, when, and our modules in it', () => {
    const shown = trace([task(90, 'before first interaction', ['react-dom (client-abc.js) 60 ms']), task(70, 'before first paint')]);
    const text = formatBreakdown(shown, [shown, trace([], 120)]);
    expect(text).toContain('#### `/calculator` at 4× CPU');
    expect(text).toContain('answered in 80 ms');
    expect(text).toContain('| 1,000 ms | 90 ms | before first interaction | 85 | 0 | 0 | 0 | 0 | 5 | react-dom (client-abc.js) 60 ms |');
    expect(text).toContain("| before first paint | 0 | 0 | 65 | 0 | 0 | 5 | none (the browser's own work) |");
  });

  it('sets the same page without scripts beside it, as the limit', () => {
    const text = formatBreakdown(trace([]), [trace([])], [trace([], 60), trace([task(70, 'before first interaction')], 90), trace([], 70)]);
    expect(text).toContain('first interaction answered in 70 ms, blocking time after the first paint 0 ms (medians)');
  });

  it('gives the first interaction timed as a phone gets it beside the traced one, ours and the copy’s', () => {
    const traced = trace([], 344);
    const text = formatBreakdown(traced, [traced], [trace([], 200)], { ours: [210, 192, 180, 400, 176], copy: [176, 168, 160] });
    expect(text).toContain('First interaction (typed into the first field) answered in 344 ms');
    expect(text).toContain(
      'the same interaction answered in 192 ms (median; runs: 210, 192, 180, 400, 176 ms); the copy with every script removed in 168 ms (runs: 176, 168, 160 ms).',
    );
    expect(formatBreakdown(traced, [traced], [], { ours: [150], copy: [] })).toContain('answered in 150 ms (median; runs: 150 ms).');
    expect(formatBreakdown(traced, [traced])).not.toContain('Timed again');
  });

  it('counts the tasks while the form is filled in and sent apart from blocking time', () => {
    const sent: StartupTrace = {
      ...trace([
        task(60, 'after first interaction'),
        task(70, 'while filling and sending', ['react-dom (client-abc.js) 40 ms']),
        task(55, 'while filling and sending'),
      ]),
      sending: 'filled in its 9 required fields as a visitor types, tapped send; the relay answered 201',
    };
    expect(blockingAfterPaintMs(sent)).toBe(10);
    expect(longTasksWhileSending(sent)).toEqual({ count: 2, ours: 1, madeLongByUs: 1, longestMs: 70 });
    const text = formatBreakdown(sent, [sent, { ...trace([]), sending: 'filled in' }]);
    expect(text).toContain(
      'Then the form was filled in its 9 required fields as a visitor types, tapped send; the relay answered 201. While it was filled in and sent: 2 tasks over 50 ms (1 with our script), the longest 70 ms; 1 made long by our script (under 50 ms without our part of it) (in each run, tasks over 50 ms: 2, 0; made long by our script: 1, 0; the longest in any run 70 ms).',
    );
    expect(text).toContain('| while filling and sending |');
  });

  it('counts a task with script in it as ours even when its samples are missing', () => {
    const unsampled: LongTask = { ...task(80, 'while filling and sending'), work: { script: 60, other: 20 }, oursMs: 60 };
    const browsers: LongTask = {
      ...task(70, 'while filling and sending'),
      work: { 'style and layout': 50, script: 2, other: 18 },
      oursMs: 2,
    };
    const sent: StartupTrace = { ...trace([unsampled, browsers]), sending: 'filled in' };
    expect(longTasksWhileSending(sent)).toEqual({ count: 2, ours: 1, madeLongByUs: 1, longestMs: 80 });
    const text = formatBreakdown(sent, [sent]);
    expect(text).toContain('| while filling and sending | 60 | 0 | 0 | 0 | 0 | 20 | script of ours, not sampled |');
    expect(text).toContain("| while filling and sending | 2 | 0 | 50 | 0 | 0 | 18 | none (the browser's own work) |");
  });

  it('says so when nothing was long while the form was filled in and sent', () => {
    const sent: StartupTrace = {
      ...trace([]),
      sending: 'filled in its 3 required fields as a visitor types, tapped send; the relay answered 201',
    };
    expect(formatBreakdown(sent, [sent])).toContain(
      'While it was filled in and sent: no task over 50 ms (in each run, tasks over 50 ms: 0; made long by our script: 0; the longest in any run 0 ms).',
    );
  });

  it("tells a tap's own long task from one our script made long, and sets the filled-in copy beside them", () => {
    // 95 ms of which 15 are ours: the browser's tap alone is 80 ms, long without us. 62 ms with 20 of ours: we made it long.
    const tap: LongTask = { ...task(95, 'while filling and sending'), work: { script: 15, rendering: 40, other: 40 }, oursMs: 15 };
    const render: LongTask = { ...task(62, 'while filling and sending', ['react-dom (client-abc.js) 20 ms']), oursMs: 20 };
    const sent: StartupTrace = { ...trace([tap, render]), sending: 'filled in its 10 required fields as a visitor types, tapped send' };
    expect(longTasksWhileSending(sent)).toMatchObject({ count: 2, ours: 2, madeLongByUs: 1 });
    const copy = (tasks: LongTask[]): StartupTrace => ({ ...trace(tasks), sending: 'filled in, not sent' });
    const text = formatBreakdown(sent, [sent], [copy([task(58, 'while filling and sending')]), copy([])]);
    expect(text).toContain('the longest 95 ms; 1 made long by our script');
    expect(text).toContain(
      'The copy with every script removed, filled in the same way (not sent: without script a send is a page load): tasks over 50 ms in each run 1, 0, the longest in any run 58 ms.',
    );
  });

  it('says so when no task was long', () => {
    expect(formatBreakdown(trace([]), [trace([])])).toContain('No task over 50 ms.');
  });
});
