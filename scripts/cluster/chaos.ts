// The chaos run shared by `npm run bench -- replicas` and the cluster test: servers behind HAProxy on
// one PostgreSQL database (a schema of its own), leads and beacons flowing, the CRM failing at
// times, a server SIGKILLed every few seconds and started again, then a rolling restart (SIGTERM
// one, wait for its exit, start it, wait until it is ready, next). Then one address sends leads well
// past LEAD_RATE_LIMIT, and the lead latency is measured without and with a beacon flood. Everything
// is counted from what the outside saw: the clients' answers, the database's rows, the CRM's and the
// SMTP server's requests, and the servers' own JSON logs.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { startCrmReceiver, OK_REPLY, type CrmReply } from '../../server/testing/crm-receiver.ts';
import { startSmtpReceiver } from '../../server/testing/smtp-receiver.ts';
import { createTestSchema } from '../../server/testing/store-harness.ts';
import { seededRandom } from '../bench/seeded-random.ts';
import type { FloodResult, FloodSettings } from './flood-thread.ts';
import { loopbackAddress, pace, percentile, sendBeacon, sendLead, type Answer, type LeadOutcome } from './load.ts';
import { startCluster, type Cluster } from './topology.ts';

export type ChaosOptions = {
  /** A PostgreSQL database the run may add a schema to (dropped afterwards). */
  readonly databaseUrl: string;
  readonly distDir: string;
  /** Where the balancer's configuration and the servers' logs go. */
  readonly runDir: string;
  readonly balancerPort: number;
  readonly serverPorts: readonly number[];
  /** How long servers are killed for, and how often. */
  readonly chaosSeconds: number;
  readonly killEverySeconds: number;
  readonly leadsPerSecond: number;
  readonly beaconsPerSecond: number;
  /** JOB_PERIOD_SECONDS: every periodic job's period, so several pass during the run. */
  readonly jobPeriodSeconds: number;
  /** DRAIN_SECONDS, how long a server keeps serving after SIGTERM (the servers' default when unset). */
  readonly drainSeconds?: number;
  /** LEAD_RATE_LIMIT, and how many leads one address sends within a few seconds against it. */
  readonly leadRateLimit: number;
  readonly rateProbeLeads: number;
  /** Lead latency measured alone, then under beacons at `beaconsPerSecond`, each for `seconds`. */
  readonly flood: { readonly seconds: number; readonly beaconsPerSecond: number; readonly leadsPerSecond: number };
  /** Shares of CRM requests answered 503 (Retry-After: 1) and never answered (the server's 10 s timeout). */
  readonly crmFailures: { readonly unavailable: number; readonly hang: number };
  /** How long to wait after the load for every stored lead's delivery and e-mail (leases run out first). */
  readonly settleTimeoutMs: number;
  readonly log?: (line: string) => void;
};

export type Latency = { readonly count: number; readonly p50: number; readonly p99: number; readonly max: number; readonly other: number };

export type ChaosResult = {
  readonly servers: number;
  readonly seconds: number;
  readonly loadAtStart: number;
  readonly kills: number;
  readonly leads: {
    readonly sent: number;
    readonly acknowledged: number;
    readonly stored: number;
    /** Answered 201 but not in the database (goal 0). */
    readonly acknowledgedMissing: number;
    /** In the database but never answered 201 (the person gave up after every try; goal 0). */
    readonly storedUnacknowledged: number;
    /** One submission (one e-mail address) stored more than once (goal 0). */
    readonly storedTwice: number;
    /** Submissions that never got a 201 after every try. */
    readonly gaveUp: number;
  };
  readonly crm: {
    readonly requests: number;
    readonly unavailable: number;
    readonly hung: number;
    /** Stored leads the CRM answered 2xx exactly once, more than once, never. */
    readonly once: number;
    readonly twice: number;
    readonly never: number;
    /** Of `twice`: sent again only after a SIGKILL and the lease (the contract's one resend), and the rest (goal 0). */
    readonly twiceAfterKill: number;
    readonly twiceOtherwise: number;
  };
  readonly jobs: ReadonlyArray<{ readonly job: string; readonly periods: number; readonly runs: number; readonly periodsRunTwice: number }>;
  /** New-lead e-mails per stored lead; `queued`: none yet, its notification still waiting its turn (not lost). */
  readonly emails: {
    readonly once: number;
    readonly twice: number;
    readonly never: number;
    readonly queued: number;
    readonly other: number;
    readonly twiceAfterKill: number;
    readonly twiceOtherwise: number;
  };
  readonly requests: {
    readonly duringKills: { readonly total: number; readonly failed: number };
    readonly duringRollingRestart: { readonly total: number; readonly failed: number; readonly failures: Readonly<Record<string, number>> };
  };
  readonly rollingExitCodes: ReadonlyArray<number | null>;
  readonly rateLimit: { readonly setting: number; readonly sent: number; readonly accepted: number; readonly errorShare: number };
  readonly latency: {
    readonly alone: Latency;
    readonly underFlood: Latency;
    readonly beacons: {
      readonly answered: number;
      readonly perSecond: number;
      readonly other: number;
      readonly skipped: number;
      readonly p99: number;
    };
  };
  readonly unexpectedExits: readonly string[];
  readonly logDir: string;
};

type Phase = 'start' | 'kills' | 'rolling' | 'after';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The outbox's lease on a delivery and the notifier's on an e-mail: a holder that dies is replaced only after it. */
const CRM_LEASE_MS = 60_000;
const EMAIL_LEASE_MS = 2 * 60_000;
/** Clocks and timers on a loaded machine: a resend a little sooner than the lease still counts as after it. */
const LEASE_SLACK_MS = 10_000;
const LEAD_ID = /\/console\/leads\/([0-9a-f-]{36})/;

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const began = Date.now();
  const log = (line: string) => options.log?.(`+${Math.round((Date.now() - began) / 1_000)} s ${line}`);
  const loadAtStart = os.loadavg()[0] ?? 0;
  const schema = await createTestSchema(options.databaseUrl, 'chaos');
  const crm = await startCrmReceiver();
  const smtp = await startSmtpReceiver();
  const mailClock = setInterval(() => {
    while (mailTimes.length < smtp.mails.length) mailTimes.push(Date.now());
  }, 100);
  const random = seededRandom(34);
  const crmAnswers = { unavailable: 0, hung: 0 };
  // When the CRM answered each lead 2xx, and when each e-mail arrived (its index in smtp.mails).
  const twoHundreds = new Map<string, number[]>();
  const mailTimes: number[] = [];
  const killTimes: number[] = [];
  crm.respond = (request) => {
    // Follow-up events (owner changes and the like) are not the lead's own delivery.
    if (request.headers['x-lead-event'] !== undefined) return OK_REPLY;
    const draw = random();
    if (draw < options.crmFailures.hang) {
      crmAnswers.hung += 1;
      return 'hang';
    }
    if (draw < options.crmFailures.hang + options.crmFailures.unavailable) {
      crmAnswers.unavailable += 1;
      return { status: 503, headers: { 'retry-after': '1' }, body: 'busy' } satisfies CrmReply;
    }
    const id = String(request.json.lead_id);
    twoHundreds.set(id, [...(twoHundreds.get(id) ?? []), Date.now()]);
    return OK_REPLY;
  };

  let cluster: Cluster | undefined;
  const unexpectedExits: string[] = [];
  try {
    cluster = await startCluster({
      servers: options.serverPorts.length,
      databaseUrl: schema.url.toString(),
      port: options.balancerPort,
      serverPorts: options.serverPorts,
      runDir: options.runDir,
      distDir: options.distDir,
      env: {
        SITE_URL: `http://127.0.0.1:${options.balancerPort}`,
        LOG_LEVEL: 'info',
        CRM_WEBHOOK_URL: crm.url,
        // Short waits, so a lead the CRM refused is tried again within the run; enough tries that none fails.
        CRM_RETRY_DELAYS_MS: '500,1000,2000,3000,5000,5000,5000,5000,5000,5000,5000,5000',
        CRM_MAX_PER_10S: '2000',
        SMTP_URL: smtp.url,
        NOTIFY_TO: 'sales@chaos.example',
        JOB_PERIOD_SECONDS: String(options.jobPeriodSeconds),
        LEAD_RATE_LIMIT: String(options.leadRateLimit),
        ...(options.drainSeconds === undefined ? {} : { DRAIN_SECONDS: String(options.drainSeconds) }),
      },
    });
    const running = cluster;
    running.onUnexpectedExit = (name, code, signal) => unexpectedExits.push(`${name} (${signal ?? `exit code ${code}`})`);
    log(`${running.servers.length} servers behind HAProxy at ${running.url}; logs in ${options.runDir}`);

    // Every request's first answer, by the phase it started in.
    let phase: Phase = 'start';
    const tally: Record<Phase, { total: number; failed: number; failures: Record<string, number> }> = {
      start: { total: 0, failed: 0, failures: {} },
      kills: { total: 0, failed: 0, failures: {} },
      rolling: { total: 0, failed: 0, failures: {} },
      after: { total: 0, failed: 0, failures: {} },
    };
    const count = (answer: Answer, expected: number, at: Phase) => {
      const entry = tally[at];
      entry.total += 1;
      if (answer.status === expected) return;
      entry.failed += 1;
      const what = answer.status === undefined ? (answer.error ?? 'no answer') : String(answer.status);
      entry.failures[what] = (entry.failures[what] ?? 0) + 1;
    };

    const outcomes: LeadOutcome[] = [];
    const leadFlow = pace(options.leadsPerSecond, 500, async (n) => {
      const at = phase;
      const outcome = await sendLead(running.url, loopbackAddress(2, n % 500), {
        onAnswer: (answer) => count(answer, 201, at),
      });
      outcomes.push(outcome);
    });
    const beaconFlow = pace(options.beaconsPerSecond, 500, async (n) => {
      const at = phase;
      count(await sendBeacon(running.url, loopbackAddress(3, n % 2_000)), 204, at);
    });

    // 1. Kills: one server at a time, in turn, SIGKILLed and started again at once.
    phase = 'kills';
    let kills = 0;
    const killsBegan = Date.now();
    const killCount = Math.floor(options.chaosSeconds / options.killEverySeconds);
    while (kills < killCount) {
      await sleep(killsBegan + (kills + 1) * options.killEverySeconds * 1_000 - Date.now());
      const index = kills % running.servers.length;
      const name = running.servers[index]!.name;
      killTimes.push(Date.now());
      await running.stop(index, 'SIGKILL');
      kills += 1;
      log(`killed ${name} (SIGKILL ${kills} of ${killCount}); starting it again`);
      await running.start(index);
    }
    await running.settle();

    // 2. Rolling restart: SIGTERM, wait for the exit, start, wait until ready and seen by the balancer.
    phase = 'rolling';
    const rollingExitCodes: Array<number | null> = [];
    for (let index = 0; index < running.servers.length; index++) {
      const name = running.servers[index]!.name;
      const code = await running.stop(index, 'SIGTERM');
      rollingExitCodes.push(code);
      log(`rolling restart: ${name} stopped (exit code ${code}); starting it again`);
      await running.start(index);
      await running.settle();
    }
    phase = 'after';
    await Promise.all([leadFlow.stop(), beaconFlow.stop()]);

    // 3. One address, many leads within a few seconds: how many the servers accepted together.
    log(`rate limit: ${options.rateProbeLeads} leads from one address against LEAD_RATE_LIMIT=${options.leadRateLimit}`);
    const probeAddress = loopbackAddress(4, 1);
    const probe = await Promise.all(
      Array.from({ length: options.rateProbeLeads }, async (_, n) => {
        await sleep(n * 20);
        return sendLead(running.url, probeAddress, { tries: 1 });
      }),
    );
    outcomes.push(...probe);
    const accepted = probe.filter((outcome) => outcome.id !== undefined).length;

    // 4. Lead latency alone, then under a beacon flood from many addresses.
    log(
      `lead latency: ${options.flood.seconds} s alone, then ${options.flood.seconds} s beside ${options.flood.beaconsPerSecond} beacons/s`,
    );
    const measureLeads = async (seconds: number) => {
      const firsts: Answer[] = [];
      const flow = pace(options.flood.leadsPerSecond, 500, async (n) => {
        const outcome = await sendLead(running.url, loopbackAddress(5, n % 1_000), { tries: 3 });
        outcomes.push(outcome);
        firsts.push(outcome.answers[0]!);
      });
      await sleep(seconds * 1_000);
      await flow.stop();
      return latencyOf(firsts, 201);
    };
    const alone = await measureLeads(options.flood.seconds);
    const floodThread = new Worker(new URL('./flood-thread.ts', import.meta.url), {
      workerData: { url: running.url, perSecond: options.flood.beaconsPerSecond, maxInFlight: 3_000 } satisfies FloodSettings,
    });
    const floodStarted = Date.now();
    const underFlood = await measureLeads(options.flood.seconds);
    const flood = await new Promise<FloodResult>((resolve, reject) => {
      floodThread.once('message', resolve);
      floodThread.once('error', reject);
      floodThread.postMessage('stop');
    });
    await floodThread.terminate();
    const floodAnswers = flood.answers;
    const floodSeconds = (Date.now() - floodStarted) / 1_000;
    const beaconLatency = latencyOf(floodAnswers, 204);

    // 5. Wait until every stored lead reached the CRM and its e-mail went out (or the time is up).
    const sql = new pg.Client({ connectionString: schema.url.toString() });
    await sql.connect();
    let stored: Array<{ id: string; email: string }> = [];
    const mailed = () => {
      const perLead = new Map<string, number[]>();
      smtp.mails.forEach((mail, index) => {
        const id = LEAD_ID.exec(mail.text)?.[1];
        if (id !== undefined) perLead.set(id, [...(perLead.get(id) ?? []), mailTimes[index] ?? Date.now()]);
      });
      return perLead;
    };
    const settleBy = Date.now() + options.settleTimeoutMs;
    log('waiting for every stored lead to reach the CRM and its e-mail to go out…');
    for (;;) {
      stored = (await sql.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE spam_reason IS NULL')).rows;
      const emails = mailed();
      const done = stored.every((lead) => twoHundreds.has(lead.id) && emails.has(lead.id));
      if (done || Date.now() > settleBy) break;
      await sleep(1_000);
    }
    // A little longer: a second delivery or e-mail would show now.
    await sleep(3_000);
    const queued = new Set(
      (
        await sql.query<{ lead_id: string }>(
          "SELECT lead_id FROM notifications WHERE kind = 'new-lead' AND channel = 'email' AND state <> 'sent' AND lead_id IS NOT NULL",
        )
      ).rows.map((row) => row.lead_id),
    );
    await sql.end();

    const acknowledged = new Set(outcomes.flatMap((outcome) => (outcome.id === undefined ? [] : [outcome.id])));
    const storedIds = new Set(stored.map((lead) => lead.id));
    const perEmail = new Map<string, number>();
    for (const lead of stored) perEmail.set(lead.email, (perEmail.get(lead.email) ?? 0) + 1);
    const emails = mailed();
    const otherMails = smtp.mails.filter((mail) => !LEAD_ID.test(mail.text)).length;
    // A second one is the contract's resend when the first went to a server killed before it
    // recorded it: a SIGKILL between the two, and the second only once that server's lease ran out.
    const tallyOf = (times: ReadonlyMap<string, readonly number[]>, leaseMs: number) => {
      const repeated = stored.map((lead) => times.get(lead.id) ?? []).filter((at) => at.length > 1);
      const afterKill = repeated.filter(
        ([first, second, ...more]) =>
          more.length === 0 && second! - first! >= leaseMs - LEASE_SLACK_MS && killTimes.some((kill) => kill >= first! && kill <= second!),
      ).length;
      return {
        once: stored.filter((lead) => times.get(lead.id)?.length === 1).length,
        twice: repeated.length,
        never: stored.filter((lead) => !times.has(lead.id)).length,
        twiceAfterKill: afterKill,
        twiceOtherwise: repeated.length - afterKill,
      };
    };

    const jobs = new Map<string, Map<string, number>>();
    for (const line of running.logLines()) {
      if (line.msg !== 'job run finished') continue;
      const job = String(line.job);
      const periods = jobs.get(job) ?? new Map<string, number>();
      periods.set(String(line.period), (periods.get(String(line.period)) ?? 0) + 1);
      jobs.set(job, periods);
    }

    return {
      servers: running.servers.length,
      seconds: Math.round((Date.now() - began) / 1_000),
      loadAtStart,
      kills,
      leads: {
        sent: outcomes.length,
        acknowledged: acknowledged.size,
        stored: storedIds.size,
        acknowledgedMissing: [...acknowledged].filter((id) => !storedIds.has(id)).length,
        storedUnacknowledged: [...storedIds].filter((id) => !acknowledged.has(id)).length,
        storedTwice: [...perEmail.values()].filter((n) => n > 1).length,
        gaveUp: outcomes.filter((outcome) => outcome.id === undefined && outcome.answers.at(-1)?.status !== 429).length,
      },
      crm: { requests: crm.received(), ...crmAnswers, ...tallyOf(twoHundreds, CRM_LEASE_MS) },
      jobs: [...jobs].map(([job, periods]) => ({
        job,
        periods: periods.size,
        runs: [...periods.values()].reduce((sum, n) => sum + n, 0),
        periodsRunTwice: [...periods.values()].filter((n) => n > 1).length,
      })),
      emails: {
        ...tallyOf(emails, EMAIL_LEASE_MS),
        never: stored.filter((lead) => !emails.has(lead.id) && !queued.has(lead.id)).length,
        queued: stored.filter((lead) => !emails.has(lead.id) && queued.has(lead.id)).length,
        other: otherMails,
      },
      requests: {
        duringKills: { total: tally.kills.total, failed: tally.kills.failed },
        duringRollingRestart: tally.rolling,
      },
      rollingExitCodes,
      rateLimit: {
        setting: options.leadRateLimit,
        sent: options.rateProbeLeads,
        accepted,
        errorShare: (accepted - options.leadRateLimit) / options.leadRateLimit,
      },
      latency: {
        alone,
        underFlood,
        beacons: {
          answered: beaconLatency.count - beaconLatency.other,
          perSecond: Math.round((beaconLatency.count - beaconLatency.other) / floodSeconds),
          other: beaconLatency.other,
          skipped: flood.skipped,
          p99: beaconLatency.p99,
        },
      },
      unexpectedExits,
      logDir: options.runDir,
    };
  } finally {
    clearInterval(mailClock);
    await cluster?.close();
    await crm.close();
    await smtp.close();
    await schema.drop();
  }
}

function latencyOf(answers: readonly Answer[], expected: number): Latency {
  const times = answers.filter((answer) => answer.status === expected).map((answer) => answer.ms);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: answers.length,
    p50: round(percentile(times, 0.5)),
    p99: round(percentile(times, 0.99)),
    max: round(Math.max(...times)),
    other: answers.length - times.length,
  };
}

/** The run as a Markdown table (the bench prints it; the test prints it before its checks). */
export function formatChaosTable(result: ChaosResult): string {
  const { leads, crm, emails, requests, rateLimit, latency } = result;
  const ms = (run: Latency) => `${run.p50} / ${run.p99} / ${run.max} ms (${run.count - run.other} answered 201, ${run.other} other)`;
  const jobs =
    result.jobs.length === 0
      ? ['| Job runs per period (goal: one) | no "job run finished" line in any server\'s log |']
      : result.jobs.map(
          (job) =>
            `| Job \`${job.job}\`: periods run / runs / periods run twice (goal 0) | ${job.periods} / ${job.runs} / **${job.periodsRunTwice}** |`,
        );
  const failures = Object.entries(requests.duringRollingRestart.failures)
    .map(([what, n]) => `${n}× ${what}`)
    .join(', ');
  return [
    `${result.servers} servers behind HAProxy on one PostgreSQL, ${result.seconds} s in all, ${result.kills} SIGKILLs then a rolling restart (exit codes ${result.rollingExitCodes.join(', ')}). Machine: ${os.cpus().length} cores, load average ${result.loadAtStart.toFixed(1)} at the start.`,
    '',
    '| Measure | Result |',
    '|---|---|',
    `| Leads acknowledged (201) / stored (not spam) | ${leads.acknowledged} / ${leads.stored} |`,
    `| Acknowledged but not stored / stored but never acknowledged / one submission stored twice (goal 0 each) | **${leads.acknowledgedMissing}** / **${leads.storedUnacknowledged}** / **${leads.storedTwice}** |`,
    `| Submissions that got no 201 after every try | ${leads.gaveUp} |`,
    `| CRM requests (answered 503 / never answered) | ${crm.requests} (${crm.unavailable} / ${crm.hung}) |`,
    `| Stored leads with one CRM 2xx / more than one / none (goal: all one) | ${crm.once} / ${crm.twice} / **${crm.never}** |`,
    `| Of those with more than one: sent again after a SIGKILL, once the lease ran out / otherwise (goal 0) | ${crm.twiceAfterKill} / **${crm.twiceOtherwise}** |`,
    ...jobs,
    `| Stored leads with one new-lead e-mail / more than one / none (goal: all one) | ${emails.once} / ${emails.twice} / **${emails.never}** (${emails.queued} more still queued when the run ended; ${emails.other} other e-mails) |`,
    `| Of those with more than one: sent again after a SIGKILL, once the lease ran out / otherwise (goal 0) | ${emails.twiceAfterKill} / **${emails.twiceOtherwise}** |`,
    `| Requests failed while servers were killed | ${requests.duringKills.failed} of ${requests.duringKills.total} |`,
    `| Requests failed during the rolling restart (goal 0) | **${requests.duringRollingRestart.failed}** of ${requests.duringRollingRestart.total}${failures ? ` (${failures})` : ''} |`,
    `| Shared rate limit: leads accepted from one address / LEAD_RATE_LIMIT (error) | ${rateLimit.accepted} / ${rateLimit.setting} (${rateLimit.errorShare >= 0 ? '+' : ''}${Math.round(rateLimit.errorShare * 100)} %) of ${rateLimit.sent} sent |`,
    `| Lead p50 / p99 / max without beacons | ${ms(latency.alone)} |`,
    `| Lead p50 / p99 / max under the beacon flood | ${ms(latency.underFlood)} |`,
    `| Beacons answered 204 per second in the flood (p99) | ${latency.beacons.perSecond} (${latency.beacons.p99} ms; ${latency.beacons.other} other answers, ${latency.beacons.skipped} not sent: clients saturated) |`,
    ...(result.unexpectedExits.length > 0 ? [`| Servers that stopped by themselves | ${result.unexpectedExits.join(', ')} |`] : []),
  ].join('\n');
}
