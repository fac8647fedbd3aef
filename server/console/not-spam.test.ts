// "Not spam" forwards only what the lead's form builds from its stored values, never the fields a
// bot sent along, and refuses, keeping the lead in spam, when the form's checks would refuse it.
import { afterEach, describe, expect, it } from 'vitest';
import { HOST, startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { postgresHarness, sqliteHarness, type StoreDatabase } from '../testing/store-harness.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

/** Fields only the relay computes or only a CRM sets: a bot that sends them must not decide them. */
const MADE_UP = { roi_total_savings: '99999999', submitted_at: '1999-01-01T00:00:00Z', contact_owner: 'bot@example.com', tags: 'vip' };

describe.each([
  ['SQLite', sqliteHarness],
  ['PostgreSQL', postgresHarness],
] as const)('Not spam on %s', (_name, harness) => {
  it.skipIf(harness.skipReason)('forwards the lead as its form builds it, or refuses with what is wrong and keeps it spam', async () => {
    database = await harness.createDatabase();
    const console = await startConsoleServer({ database, env: { CRM_WEBHOOK_URL: 'http://127.0.0.1:9/crm' } });
    server = console;
    await console.addAccount('sales@example.com', 'sales');
    const sales = await console.signedIn('sales@example.com');
    const post = async (body: Record<string, unknown>) => {
      const response = await console.app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: { host: HOST, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(201);
      return response.json<{ id: string }>().id;
    };

    // A real ROI lead, for the figures the relay computes from these values.
    const real = await console.store.getLead(await post(validLeadBody('roi')));
    // The same values with the honeypot filled and made-up fields: spam, stored as its form built it.
    const caught = await post({ ...validLeadBody('roi'), ...MADE_UP, website: 'https://spam.example' });
    // A honeypot body the ROI form refuses (no valid e-mail address): kept as it came.
    const invalid = await post({ ...validLeadBody('roi'), ...MADE_UP, email: 'not-an-address', website: 'x' });
    expect((await console.store.getLead(invalid))?.payload).toMatchObject({
      roi_total_savings: '99999999',
      contact_owner: 'bot@example.com',
    });

    const refused = await console.change(sales, 'POST', `/console/api/leads/${invalid}/spam`, { spam: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toMatch(
      /^This lead cannot be sent, as its form would not accept it \(Business Email: [^)]+\): it stays in spam\.$/,
    );
    expect(await console.store.getLead(invalid)).toMatchObject({ state: 'spam', spamReason: expect.stringContaining('honeypot') });

    const accepted = await console.change(sales, 'POST', `/console/api/leads/${caught}/spam`, { spam: false });
    expect(accepted.json()).toEqual({ state: 'pending' });
    const forwarded = await console.store.getLead(caught);
    expect(forwarded).toMatchObject({ state: 'pending', spamReason: undefined });
    const payload = forwarded?.payload ?? {};
    for (const field of ['contact_owner', 'tags', 'website']) expect(payload).not.toHaveProperty(field);
    expect(payload.roi_total_savings).toBe(real?.payload.roi_total_savings);
    expect(payload.submitted_at).toBe(new Date(forwarded?.receivedAt ?? 0).toISOString());
    expect(payload.lead_id).toBe(caught);
    const { submitted_at: _realTime, lead_id: _realId, ...realFields } = real?.payload ?? {};
    expect(payload).toMatchObject(realFields);
  });
});
