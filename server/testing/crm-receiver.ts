import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP CRM webhook on 127.0.0.1 for tests and the bench: records every request and answers
// with whatever `respond` says (default 200 {"status":"ok"}); `respond` may also never answer (a hang).

export type ReceivedRequest = {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, unknown>;
  readonly receivedAt: number;
};

export type CrmReply = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

export type CrmReceiver = {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Decides the answer to each request; gets the request and how many came before it. */
  respond: (request: ReceivedRequest, index: number) => CrmReply;
  /** How many requests arrived (also when not recording them). */
  received(): number;
  /** Lead ids received, in order (from the body's `lead_id`). */
  leadIds(): string[];
  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export const OK_REPLY: CrmReply = { status: 200, body: '{"status":"ok"}', headers: { 'content-type': 'application/json' } };

export async function startCrmReceiver(options: { record?: boolean } = {}): Promise<CrmReceiver> {
  const record = options.record ?? true;
  const hanging = new Set<ServerResponse>();
  let count = 0;
  let waiters: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // Recorded as received; the test decides what a non-JSON body means.
      }
      const received: ReceivedRequest = { headers: request.headers, body, json, receivedAt: Date.now() };
      const index = count;
      count += 1;
      if (record) receiver.requests.push(received);
      const reply = receiver.respond(received, index);
      if (reply === 'hang') hanging.add(response);
      else if (reply.delayMs === undefined) response.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
      else setTimeout(() => response.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? ''), reply.delayMs);
      for (const wake of waiters) wake();
      waiters = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: CrmReceiver = {
    url: `http://127.0.0.1:${port}/hooks/lead`,
    requests: [],
    respond: () => OK_REPLY,
    received: () => count,
    leadIds: () => receiver.requests.map((request) => String(request.json.lead_id)),
    async waitForRequests(target, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (count < target) {
        if (Date.now() > deadline) throw new Error(`CRM receiver got ${count} of ${target} requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}
