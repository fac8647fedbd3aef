// How the back office's servers write their log: JSON lines for machines (CI, pipes, files, a log
// collector), one readable line per entry for a person watching a terminal. The entries are the same
// either way; only their rendering differs, so nothing a machine reads depends on who started the
// process.

export type LogFormat = 'json' | 'readable';

/** Where pino writes: anything with `write(line)`. */
export type LogStream = { write(line: string): unknown };

/**
 * JSON unless standard output is a terminal: a person reads a terminal, while anything else (a pipe,
 * a file, a service manager's journal) is read by a program that expects one JSON object per line.
 */
export function chooseLogFormat(isTTY: boolean | undefined): LogFormat {
  return isTTY === true ? 'readable' : 'json';
}

/**
 * The stream a server's logger writes to: the one given (tests read JSON back from it), else
 * standard output, made readable when it is a terminal. `undefined` leaves pino's own JSON writer to
 * standard output in place.
 */
export function logDestination(given: LogStream | undefined, stdout: NodeJS.WriteStream = process.stdout): LogStream | undefined {
  if (given !== undefined) return given;
  if (chooseLogFormat(stdout.isTTY) === 'json') return undefined;
  return readableLogStream(stdout, { colour: process.env.NO_COLOR === undefined || process.env.NO_COLOR === '' });
}

/** `logDestination` as the `stream` part of a Fastify `logger` option: absent when pino's own writer stays. */
export function logStreamOption(given?: LogStream, stdout: NodeJS.WriteStream = process.stdout): { stream?: LogStream } {
  const stream = logDestination(given, stdout);
  return stream === undefined ? {} : { stream };
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every entry has, or that the line already shows in its own place. */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);
const REQUEST_FIELDS = ['method', 'url', 'statusCode', 'responseTime'] as const;

/** A writer that turns each JSON log line into a readable one before it reaches `out`. */
export function readableLogStream(out: LogStream, options: { colour: boolean }): LogStream {
  return { write: (line: string) => out.write(readableLogLine(line, options)) };
}

/**
 * One JSON log line as a person reads it: local time, level, message, then any other fields as
 * `name=value`; a request's line reads `GET /about 200 3.1 ms`; an error adds its stack below.
 * A line that is not JSON is passed on as it is.
 */
export function readableLogLine(line: string, options: { colour: boolean } = { colour: false }): string {
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return asOneLine(line);
    entry = parsed as Record<string, unknown>;
  } catch {
    return asOneLine(line);
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const name = (LEVEL_NAMES[level] ?? String(level)).padEnd(5);
  const label = options.colour ? `\u001b[${LEVEL_COLOURS[level] ?? '0'}m${name}\u001b[0m` : name;
  const parts = [clock(entry.time), label];
  const isRequest = REQUEST_FIELDS.every((field) => field in entry);
  if (isRequest) {
    parts.push(`${String(entry.method)} ${String(entry.url)} ${String(entry.statusCode)} ${formatMs(entry.responseTime)}`);
  } else if (typeof entry.msg === 'string' && entry.msg !== '') {
    parts.push(entry.msg);
  }
  for (const [key, value] of Object.entries(entry)) {
    if (SHOWN_APART.has(key) || (isRequest && (REQUEST_FIELDS as readonly string[]).includes(key))) continue;
    if (isRequest && key === 'msg') continue;
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return `${parts.join(' ')}${describeError(entry.err)}\n`;
}

function asOneLine(line: string): string {
  return line.endsWith('\n') ? line : `${line}\n`;
}

function clock(time: unknown): string {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function formatMs(value: unknown): string {
  return typeof value === 'number' ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms` : `${String(value)} ms`;
}

/** An error's stack (else its message) below the line, indented, so it stands apart from the next entry. */
function describeError(err: unknown): string {
  if (err === null || typeof err !== 'object') return err === undefined ? '' : ` err=${String(err)}`;
  const { stack, message } = err as { stack?: unknown; message?: unknown };
  const text = typeof stack === 'string' ? stack : typeof message === 'string' ? message : JSON.stringify(err);
  return `\n${text
    .split('\n')
    .map((row) => `    ${row}`)
    .join('\n')}`;
}
