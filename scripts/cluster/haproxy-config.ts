// The load balancer's configuration, written once: `deploy/haproxy.cfg` (compose.yaml's balancer in
// front of app1, app2 and app3) is this function's output for those servers, and `npm run cluster`,
// the replicas bench and the cluster test write it for their own ports. A test keeps the file equal
// to the function, so the topology the tests prove is the one that ships.

export type BalancedServer = {
  /** The name HAProxy's logs and stats give it (app1, app2, …). */
  readonly name: string;
  /** host:port; a host name is looked up through `resolver` (Docker's DNS) while the balancer runs. */
  readonly address: string;
};

export type HaproxyConfigOptions = {
  /** Where the balancer listens: `:4321` (every interface) or `127.0.0.1:4321`. */
  readonly bind: string;
  readonly servers: readonly BalancedServer[];
  /** A DNS server for host names that come and go (Docker's is 127.0.0.11:53); none for addresses. */
  readonly resolver?: string;
};

/**
 * Requests one server works on at once; more wait in the balancer's queue, leads first. Enough to keep a
 * server's two cores busy (its answers take milliseconds), few enough that a flood queues where the
 * balancer can order it rather than inside the server.
 */
export const MAX_CONNECTIONS_PER_SERVER = 8;

/** How often each server's /readyz is asked; two failures take it out, one success puts it back. */
export const READINESS_CHECK = { intervalMs: 1_000, fall: 2, rise: 1 } as const;

export function haproxyConfig({ bind, servers, resolver }: HaproxyConfigOptions): string {
  const resolve = resolver === undefined ? '' : ' resolvers docker resolve-prefer ipv4';
  return `# Written by scripts/cluster/haproxy-config.ts (a test keeps this file equal to it): change both.
global
  # Each connection takes two file descriptors (visitor and server): 8,000 fit a 20,000 limit.
  maxconn 8000
  # A lead's body is at most 16 KiB; retrying a request needs all of it in one buffer with its headers.
  tune.bufsize 65536
  log stdout format raw local0 info
${
  resolver === undefined
    ? ''
    : `
# Servers are found by name again when they restart with another address.
resolvers docker
  nameserver dns ${resolver}
  hold valid 1s
`
}
defaults
  mode http
  log global
  option httplog
  option dontlognull
  # The servers read the visitor's address from X-Forwarded-For (TRUST_PROXY=1): the last entry,
  # the one this balancer adds, so a visitor cannot choose the address the rate limits count.
  option forwardfor
  timeout connect 2s
  timeout client 35s
  # A server answers within 30 s or cuts the request itself (its own request timeout).
  timeout server 35s
  timeout http-request 10s
  timeout http-keep-alive 5s
  timeout queue 5s
  # A request is tried again, on another server (redispatch on every retry), when the server refused
  # the connection, closed it without answering, or answered 503. That is safe for a POST here:
  # a refused connection reached no server; a 503 is what a server answers when it stored nothing
  # (it is closing, its store is unreachable, or it is too busy); and a server that dies after
  # storing a lead but before answering is met by the lead's Idempotency-Key, which makes the
  # second server answer with the first lead's id instead of storing it again.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response 503
  # A check that outlives the server's own limit for its checks (2 s) is a failure, not before.
  timeout check 3s

frontend site
  bind ${bind}
  # The balancer asks each server's /readyz itself; from outside, the health answers are nobody's
  # business, and a flood of them would queue on the servers' database connections.
  http-request deny deny_status 404 if { path /readyz /healthz }
  default_backend servers

backend servers
  balance roundrobin
  # A POST without an Idempotency-Key (a form posted without JavaScript, a console action) could have
  # been stored by a server that died before answering: it is never sent twice. Beacons are the
  # exception: one counted twice after a server died is a page view too many, not a lead too many.
  http-request disable-l7-retry if METH_POST !{ req.hdr(idempotency-key) -m found } !{ path /api/events }
  # A server takes traffic only while /readyz answers 200: its store is reachable, its schema is
  # current and it is not draining. On SIGTERM it answers 503 at once and keeps serving for a few
  # seconds (DRAIN_SECONDS), longer than ${READINESS_CHECK.fall} failed checks ${READINESS_CHECK.intervalMs / 1000} s apart take to stop sending it requests.
  # Leads first: past MAX_CONNECTIONS_PER_SERVER requests at once on a server, the next wait in the
  # balancer's queue, and a lead (or a booking webhook) waiting there is sent before any page or beacon,
  # so a flood of beacons never makes a lead wait behind it.
  http-request set-priority-class int(-10) if METH_POST { path /api/leads /api/bookings/cal /api/bookings/calendly }
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server maxconn ${MAX_CONNECTIONS_PER_SERVER} inter ${READINESS_CHECK.intervalMs / 1000}s fall ${READINESS_CHECK.fall} rise ${READINESS_CHECK.rise} init-addr last,libc,none${resolve}
${servers.map((server) => `  server ${server.name} ${server.address} check`).join('\n')}
`;
}

/** compose.yaml's balancer: three app servers by their service names, on their own port 4321. */
export const COMPOSE_HAPROXY_CONFIG = haproxyConfig({
  bind: ':4321',
  servers: [1, 2, 3].map((n) => ({ name: `app${n}`, address: `app${n}:4321` })),
  resolver: '127.0.0.11:53',
});
