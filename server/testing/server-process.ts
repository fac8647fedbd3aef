import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

// The real server process (`node server/main.ts` with the pinned Node 24) for the crash, shutdown and
// bench runs. Only 127.0.0.1 is ever used.

export const NODE_BINARY = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
export const SERVER_MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

export type ServerProcess = {
  readonly child: ChildProcess;
  readonly port: number;
  readonly baseUrl: string;
  output(): { stdout: string; stderr: string };
  readonly exited: Promise<number | null>;
};

export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startServerProcess(
  env: Record<string, string>,
  cwd: string,
  options: { keepOutput?: boolean } = {},
): Promise<ServerProcess> {
  const keepOutput = options.keepOutput ?? true;
  const port = Number(env.PORT ?? (await findFreePort()));
  const child = spawn(NODE_BINARY, [SERVER_MAIN], {
    cwd,
    // No drain unless a test asks for one: a test's SIGTERM means "stop now", not "a balancer is watching".
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), DRAIN_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    if (keepOutput) stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const server: ServerProcess = { child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => ({ stdout, stderr }), exited };
  await waitUntilHealthy(server);
  return server;
}

async function waitUntilHealthy(server: ServerProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early: ${server.output().stderr}`);
    const response = await fetch(`${server.baseUrl}/healthz`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms`);
}

export function parseLogLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
