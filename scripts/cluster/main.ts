// `npm run cluster [-- --servers N]`: N servers (3 by default) on the PostgreSQL database in
// DATABASE_URL behind a real HAProxy (/usr/sbin/haproxy, the configuration compose.yaml's balancer
// uses, written for these ports), the topology of compose.yaml as processes on this machine. The
// balancer listens on PORT (4321); the servers on PORT+11, PORT+12, …; each logs to a file of its
// own. Ctrl-C stops every server gracefully, then the balancer.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnvFile } from '../../back-office/env-file.ts';
import { DATABASE_URL_MISSING, findHaproxy, HAPROXY_MISSING, startCluster } from './topology.ts';

const { values } = parseArgs({ options: { servers: { type: 'string', default: '3' } } });
const servers = Number(values.servers);
if (!Number.isInteger(servers) || servers < 1 || servers > 20)
  fail(`--servers must be a whole number from 1 to 20, got "${values.servers}".`);

loadEnvFile();
const databaseUrl = process.env.DATABASE_URL?.trim();
if (!databaseUrl) fail(DATABASE_URL_MISSING);
const haproxy = findHaproxy();
if (haproxy === undefined) fail(HAPROXY_MISSING);
const port = Number(process.env.PORT?.trim() || 4321);
if (!Number.isInteger(port) || port < 1 || port + 10 + servers > 65_535) fail(`PORT must be a port number, got "${process.env.PORT}".`);

const runDir = path.resolve('.tmp', 'cluster', new Date().toISOString().replace(/[:.]/g, '-'));
const { PORT: _port, HOST: _host, ...env } = process.env;
const cluster = await startCluster({
  servers,
  databaseUrl,
  port,
  serverPorts: Array.from({ length: servers }, (_, index) => port + 11 + index),
  runDir,
  distDir: path.resolve(process.env.DIST_DIR?.trim() || 'dist'),
  env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  haproxy,
}).catch((error: unknown) => fail(`The cluster did not start: ${error instanceof Error ? error.message : String(error)}`));

cluster.onUnexpectedExit = (name, code, signal) =>
  console.error(`${name} stopped by itself (${signal ?? `exit code ${code}`}): see ${path.join(runDir, `${name}.log`)}`);

console.log(`${servers} servers behind HAProxy: ${cluster.url}`);
for (const server of cluster.servers) console.log(`  ${server.name}: ${server.url}, log ${server.logFile}`);
console.log(`  HAProxy: configuration ${cluster.configFile}, log ${cluster.haproxyLog}`);
console.log('Ctrl-C stops them all.');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping every server, then the balancer…');
    void cluster.close().then(() => process.exit(0));
  });
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
