// The beacon listener's thread as the server runs it, except that it stops a moment after it handed
// over its first beacons, as a thread that crashed would: for the test of what the server does then.
import { parentPort } from 'node:worker_threads';

const port = parentPort!;
const post = port.postMessage.bind(port);
port.postMessage = (message: { type?: string }) => {
  post(message);
  if (message.type === 'beacons') setTimeout(() => process.exit(7), 50);
};
await import('../events-listener-thread.ts');
