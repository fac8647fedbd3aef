import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listSourceFiles, readImportGraph } from '../import-cycles.ts';
import { COMPOSE_HAPROXY_CONFIG, haproxyConfig } from './haproxy-config.ts';
import { findHaproxy, HAPROXY_MISSING } from './topology.ts';

// What ships (Dockerfile, compose.yaml, deploy/haproxy.cfg) cannot be run here (no Docker), so its
// parts are checked: the balancer's file is the one the cluster test runs, HAProxy accepts it, the
// image holds every file the server imports, and compose runs three bounded servers behind it.

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const haproxy = findHaproxy();
const haproxyRequired = process.env.REQUIRE_POSTGRES === '1';

describe('deploy/haproxy.cfg', () => {
  it('is what haproxyConfig writes for compose.yaml, the configuration npm run cluster and the cluster test run', () => {
    expect(read('deploy/haproxy.cfg')).toBe(COMPOSE_HAPROXY_CONFIG);
  });

  it('checks /readyz every second, out after 2 failures, back after 1, and retries on another server', () => {
    const config = read('deploy/haproxy.cfg');
    expect(config).toContain('http-check send meth GET uri /readyz');
    expect(config).toMatch(/default-server maxconn \d+ inter 1s fall 2 rise 1/);
    expect(config).toContain('option redispatch');
    expect(config).toContain('retry-on conn-failure empty-response 503');
    expect(config).toContain('option forwardfor');
  });

  it('never sends a POST without an Idempotency-Key twice, and answers the health addresses only to itself', () => {
    const config = read('deploy/haproxy.cfg');
    expect(config).toContain('http-request disable-l7-retry if METH_POST !{ req.hdr(idempotency-key) -m found } !{ path /api/events }');
    expect(config).toContain('http-request deny deny_status 404 if { path /readyz /healthz }');
    expect(config).toContain('timeout check 3s');
  });

  it('queues past a few requests per server, and sends the waiting leads before the waiting beacons', () => {
    const config = read('deploy/haproxy.cfg');
    expect(config).toMatch(/default-server maxconn 8 /);
    expect(config).toContain('http-request set-priority-class int(-10) if METH_POST { path /api/leads');
  });

  it.skipIf(haproxy === undefined && !haproxyRequired)('is accepted by HAProxy, as is the one written for local ports', () => {
    if (haproxy === undefined) throw new Error(HAPROXY_MISSING);
    const folder = mkdtempSync(path.join(tmpdir(), 'haproxy-config-'));
    try {
      const local = path.join(folder, 'local.cfg');
      writeFileSync(local, haproxyConfig({ bind: '127.0.0.1:5799', servers: [{ name: 'app1', address: '127.0.0.1:5798' }] }));
      for (const file of [path.join(ROOT, 'deploy/haproxy.cfg'), local]) {
        const check = spawnSync(haproxy, ['-c', '-f', file], { encoding: 'utf8' });
        expect(check.status, `${file}: ${check.stdout}${check.stderr}`).toBe(0);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('runs the server from production dependencies only, as a user other than root, health-checked on /readyz', () => {
    expect(dockerfile).toMatch(/^FROM node:24-slim AS build$/m);
    expect(runtime).toMatch(/^FROM node:24-slim$/m);
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n.*\/readyz/m);
    expect(runtime).toMatch(/^EXPOSE 4321$/m);
    expect(runtime).toMatch(/^CMD \["node", "server\/main\.ts"\]$/m);
  });

  it('copies every file the server and its commands import into the image', () => {
    const copied = [...runtime.matchAll(/^COPY --from=build \/app\/(\S+) /gm)].map((match) => match[1]!);
    const graph = readImportGraph(listSourceFiles(ROOT));
    const reached = new Set<string>();
    const pending = ['server/main.ts', 'server/cli/leads.ts', 'server/cli/users.ts'].map((file) => path.join(ROOT, file));
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      pending.push(...(graph.get(file) ?? []));
    }
    const missing = [...reached]
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !copied.some((entry) => file === entry || file.startsWith(`${entry}/`)));
    expect(missing).toEqual([]);
    expect(copied).toContain('dist');
  });

  it('leaves secrets, local data and installed modules out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'node_modules', '.env', 'data', 'dist', '.studio']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  type Service = {
    image?: string;
    environment?: Record<string, string>;
    restart?: string;
    volumes?: string[];
    healthcheck?: unknown;
    depends_on?: unknown;
  };
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };

  it('runs three servers on PostgreSQL behind the balancer, each trusting one proxy and restarted a bounded number of times', () => {
    const apps = ['app1', 'app2', 'app3'].map((name) => compose.services[name]!);
    for (const app of apps) {
      expect(app.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(app.environment?.TRUST_PROXY).toBe('1');
      expect(app.environment?.SITE_URL).toBeDefined();
      expect(app.restart).toMatch(/^on-failure:\d+$/);
      expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    }
    expect(COMPOSE_HAPROXY_CONFIG).toContain('server app3 app3:4321 check');
  });

  it('keeps PostgreSQL 15 on a volume with a health check, and mounts deploy/haproxy.cfg into HAProxy', () => {
    const { postgres, balancer } = compose.services;
    expect(postgres?.image).toBe('postgres:15');
    expect(postgres?.volumes?.[0]).toMatch(/^postgres-data:/);
    expect(postgres?.healthcheck).toBeDefined();
    expect(balancer?.image).toMatch(/^haproxy:/);
    expect(balancer?.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });
});
