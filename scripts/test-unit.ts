// `npm run test:unit`: every unit test file (Vitest), and once more the files whose test process died
// under them. Node 24's V8 can abort a process with "Check failed: jit_page.has_value()" while worker
// threads come and go (a V8 fault, not a test's: the store tests start and stop a SQLite worker thread
// per test). Vitest then reports "Worker exited unexpectedly" and never lists those files. A failed
// test is never run again: any file Vitest reports as failing fails the run, and a file that died
// twice fails it too.
import { spawn } from 'node:child_process';

const VITEST = ['node_modules/vitest/vitest.mjs'];
const CRASH = 'Worker exited unexpectedly';
// Vitest's line for a file that ran: "✓ path (n tests)" when it passed, "❯ path (…)" or "× path" when not.
const FILE_LINE = /^ *([✓❯×]) (\S+\.test\.tsx?) /u;

type Run = { code: number; output: string };

function vitest(args: readonly string[], echo: boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...VITEST, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
      output += chunk.toString();
      if (echo) stream.write(chunk);
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

// Colour codes off: ESC [ … m.
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const plain = (text: string) => text.replace(COLOUR, '');

function reported(output: string): { passed: Set<string>; failed: Set<string> } {
  const passed = new Set<string>();
  const failed = new Set<string>();
  for (const line of plain(output).split('\n')) {
    const match = FILE_LINE.exec(line);
    if (!match) continue;
    (match[1] === '✓' ? passed : failed).add(match[2]!);
  }
  return { passed, failed };
}

const args = process.argv.slice(2);
const first = await vitest(['run', ...args], true);
if (first.code === 0 || !first.output.includes(CRASH)) process.exit(first.code);

const { passed, failed } = reported(first.output);
if (failed.size > 0) process.exit(first.code);
const listed = await vitest(['list', '--filesOnly', ...args], false);
const all = plain(listed.output)
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => /\.test\.tsx?$/.test(line));
const died = all.filter((file) => !passed.has(file));
if (died.length === 0) process.exit(first.code);
process.stdout.write(
  `\nThe test process died under ${died.length} file(s) (${CRASH}: a V8 fault, see above). Running them once more:\n${died.join('\n')}\n\n`,
);
const again = await vitest(['run', ...died], true);
process.exit(again.code);
