// A Chromium driven through a bare DevTools connection that never enables the Runtime domain.
//
// Playwright (and Lighthouse) enable it on every page they drive, and while it is enabled V8 captures a
// detailed stack trace, with line and column, for every Error the page creates. React DOM creates a few
// as it is evaluated, so V8 parses the whole of its chunk a second time for the positions: a task of
// 300–530 ms at 16× CPU on this host that no phone without DevTools open ever runs. The bench's latency
// figure for a visitor's first interaction comes from here, so that it is what a phone gets.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.ts';

type Message = { id?: number; result?: unknown; error?: { message: string } };

/** What the bench does in a page: load it, ask it a small question, wait, and tap and type as a visitor. */
export type Visitor = {
  goto(url: string): Promise<void>;
  /** Runs a small expression in the page and returns its (awaited) value. */
  evaluate<T>(expression: string): Promise<T>;
  wait(ms: number): Promise<void>;
  tap(x: number, y: number): Promise<void>;
  type(text: string): Promise<void>;
};

export type BareBrowser = {
  /** A new phone-sized page (`viewport`) in a context of its own, its CPU slowed `cpuSlowdown` times. */
  newPage(options: {
    cpuSlowdown: number;
    viewport: { width: number; height: number };
    deviceScaleFactor: number;
    initScript: string;
  }): Promise<Visitor & { close(): Promise<void> }>;
  close(): Promise<void>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function launchBareBrowser(executablePath = process.env.CHROME_PATH ?? CHROMIUM_PATH): Promise<BareBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'bench-bare-chromium-'));
  const chrome: ChildProcess = spawn(
    executablePath,
    ['--headless=new', ...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Chromium at ${executablePath} did not open its DevTools port within 30 s`)), 30_000);
    chrome.once('exit', (code) => reject(new Error(`Chromium at ${executablePath} exited (${code}) before opening its DevTools port`)));
    chrome.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /DevTools listening on (ws:\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
  });
  const socket = new WebSocket(endpoint);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not connect to Chromium's DevTools at ${endpoint}`)), { once: true });
  });
  let lastId = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Message;
    const waiter = message.id === undefined ? undefined : waiting.get(message.id);
    if (!waiter) return;
    waiting.delete(message.id!);
    if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  const send = <T>(method: string, params: object = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }));
    });

  return {
    async newPage({ cpuSlowdown, viewport, deviceScaleFactor, initScript }) {
      const { browserContextId } = await send<{ browserContextId: string }>('Target.createBrowserContext');
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
      const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      const inPage = <T>(method: string, params: object = {}) => send<T>(method, params, sessionId);
      await inPage('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor, mobile: true });
      await inPage('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
      await inPage('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      await inPage('Page.enable');
      await inPage('Page.addScriptToEvaluateOnNewDocument', { source: initScript });
      // Runtime.evaluate works without Runtime.enable, which is never sent.
      const evaluate = async <T>(expression: string): Promise<T> => {
        const { result, exceptionDetails } = await inPage<{ result: { value: unknown }; exceptionDetails?: { text: string } }>(
          'Runtime.evaluate',
          { expression, awaitPromise: true, returnByValue: true },
        );
        if (exceptionDetails) throw new Error(`the page could not evaluate ${expression.slice(0, 60)}: ${exceptionDetails.text}`);
        return result.value as T;
      };
      return {
        async goto(url) {
          await inPage('Page.navigate', { url });
          // Asked every 100 ms until loaded: a question is script on the main thread, and these are tiny.
          for (let waited = 0; (await evaluate<string>('document.readyState')) !== 'complete'; waited += 100) {
            if (waited > 60_000) throw new Error(`${url} did not load within 60 s`);
            await sleep(100);
          }
        },
        evaluate,
        wait: sleep,
        async tap(x, y) {
          await inPage('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
          await inPage('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        },
        async type(text) {
          for (const key of text) {
            // A letter's or digit's key code is its upper-case character code, as on a keyboard.
            const windowsVirtualKeyCode = /^[a-z0-9]$/i.test(key) ? key.toUpperCase().charCodeAt(0) : 0;
            await inPage('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, unmodifiedText: key, windowsVirtualKeyCode });
            await inPage('Input.dispatchKeyEvent', { type: 'keyUp', key, windowsVirtualKeyCode });
          }
        },
        async close() {
          await send('Target.disposeBrowserContext', { browserContextId });
        },
      };
    },
    async close() {
      socket.close();
      chrome.kill();
      await new Promise((resolve) => (chrome.exitCode === null ? chrome.once('exit', resolve) : resolve(undefined)));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
