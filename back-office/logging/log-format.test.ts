import { describe, expect, it } from 'vitest';
import { chooseLogFormat, logDestination, logStreamOption, readableLogLine } from './log-format.ts';

/** A stand-in for standard output: a terminal or not, keeping what is written. */
function fakeStdout(isTTY: boolean | undefined) {
  const written: string[] = [];
  const stdout = { isTTY, write: (line: string) => written.push(line) > 0 } as unknown as NodeJS.WriteStream;
  return { stdout, written };
}

const AT = new Date(2026, 10, 28, 9, 5, 7, 42).getTime();

describe('chooseLogFormat', () => {
  it('is readable on a terminal and JSON anywhere else (a pipe, a file, CI)', () => {
    expect(chooseLogFormat(true)).toBe('readable');
    expect(chooseLogFormat(false)).toBe('json');
    // Node leaves isTTY undefined on a pipe or a file.
    expect(chooseLogFormat(undefined)).toBe('json');
  });
});

describe('logDestination', () => {
  it('keeps pino’s own JSON writer when standard output is not a terminal', () => {
    expect(logDestination(undefined, fakeStdout(undefined).stdout)).toBeUndefined();
    expect(logStreamOption(undefined, fakeStdout(false).stdout)).toEqual({});
  });

  it('writes readable lines to a terminal', () => {
    const { stdout, written } = fakeStdout(true);
    const stream = logStreamOption(undefined, stdout).stream;
    stream?.write(`${JSON.stringify({ level: 30, time: AT, pid: 1, hostname: 'h', msg: 'Server listening at http://127.0.0.1:4321' })}\n`);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^09:05:07\.042 .*INFO.* Server listening at http:\/\/127\.0\.0\.1:4321\n$/);
  });

  it('gives a stream it is handed the JSON lines unchanged, terminal or not', () => {
    const given = { write: () => undefined };
    expect(logDestination(given, fakeStdout(true).stdout)).toBe(given);
  });
});

describe('readableLogLine', () => {
  it('reads a request as method, address, status and time', () => {
    const line = {
      level: 30,
      time: AT,
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      method: 'POST',
      url: '/api/leads',
      statusCode: 201,
      responseTime: 3.14,
      msg: 'request completed',
    };
    expect(readableLogLine(JSON.stringify(line))).toBe('09:05:07.042 INFO  POST /api/leads 201 3.1 ms\n');
    expect(readableLogLine(JSON.stringify({ ...line, responseTime: 1234.5 }))).toBe('09:05:07.042 INFO  POST /api/leads 201 1235 ms\n');
  });

  it('shows the other fields after the message, and an error’s stack below it', () => {
    const entry = {
      level: 50,
      time: AT,
      msg: 'publish failed',
      outcome: 'store_unavailable',
      count: 2,
      err: { message: 'boom', stack: 'Error: boom\n    at here' },
    };
    expect(readableLogLine(JSON.stringify(entry))).toBe(
      '09:05:07.042 ERROR publish failed outcome=store_unavailable count=2\n    Error: boom\n        at here\n',
    );
  });

  it('colours the level only when asked', () => {
    const line = JSON.stringify({ level: 40, time: AT, msg: 'slow' });
    expect(readableLogLine(line, { colour: true })).toBe('09:05:07.042 \u001b[33mWARN \u001b[0m slow\n');
    expect(readableLogLine(line, { colour: false })).toBe('09:05:07.042 WARN  slow\n');
  });

  it('passes a line that is not a JSON object on as it is', () => {
    expect(readableLogLine('plain words')).toBe('plain words\n');
    expect(readableLogLine('[1,2]\n')).toBe('[1,2]\n');
  });
});
