// A stand-in for the CRM's webhook during the browser journeys, run by Playwright beside the site's
// server: the relay under test forwards each lead here (CRM_WEBHOOK_URL), and the journeys read back
// what the CRM received (GET /received). Loopback only; it keeps at most MAX_KEPT requests.
import { createServer } from 'node:http';

const port = Number(process.env.CRM_RECEIVER_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('CRM_RECEIVER_PORT must be a port number');

const MAX_KEPT = 10_000;
export type CrmDelivery = {
  readonly receivedAt: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Record<string, unknown>;
};
const received: CrmDelivery[] = [];

createServer((request, response) => {
  const answer = (status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (request.method === 'GET' && request.url === '/healthz') return answer(200, { status: 'ok' });
  if (request.method === 'GET' && request.url === '/received') return answer(200, received);
  if (request.method !== 'POST' || request.url !== '/crm') return answer(404, { error: 'not_found' });
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return answer(400, { error: 'not_json' });
    }
    if (received.length >= MAX_KEPT) received.shift();
    received.push({ receivedAt: Date.now(), headers: request.headers, body });
    answer(200, { status: 'ok' });
  });
}).listen(port, '127.0.0.1');
