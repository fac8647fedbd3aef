// The team's accounts, for admins: GET /accounts, POST /accounts { email, role, password },
// PATCH /accounts/:email { role } and DELETE /accounts/:email. The console never leaves the team
// without an admin (the last one can be neither demoted nor removed), and nobody removes their own
// account from under themselves. The store checks for another admin and makes the change in one
// transaction (keepAnAdmin), so two admins demoting or removing each other at the same moment cannot
// both succeed. Removing an account ends its sessions at once (the store does it in the same
// transaction), so its next request is signed out. A person removed, or moved to a role that does not
// work leads, loses their open leads to the round-robin (server/sales/release.ts).
import { z } from 'zod';
import type { AccountSummary } from '../../../console/api-types.ts';
import { isEmailAddress, MAX_EMAIL_LENGTH, normalizeEmail } from '../../../back-office/accounts/email.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../back-office/accounts/passwords.ts';
import { addAccount } from '../../../back-office/accounts/operations.ts';
import { changeTeamRole, removeTeamAccount } from '../../sales/release.ts';
import { ROLES } from '../../../back-office/roles.ts';
import type { AccountRecord } from '../../../back-office/accounts/account-store.ts';
import { conflict, notFound } from '../api-errors.ts';
import { actingOf, actorOf, type ConsoleContext } from '../context.ts';
import type { ConsoleRoutes } from '../request-checks.ts';

const email = z
  .string()
  .max(MAX_EMAIL_LENGTH)
  .transform(normalizeEmail)
  .refine(isEmailAddress, 'Must be an e-mail address, such as ana@example.com.');
const role = z.enum(ROLES);
const accountParams = z.strictObject({ email });

const NO_ACCOUNT = 'There is no account with that address.';
const LAST_ADMIN = 'This is the only admin account: make another account admin first, so someone can still manage the team.';

function toAccountSummary(account: AccountRecord): AccountSummary {
  return {
    email: account.email,
    role: account.role,
    createdAt: new Date(account.createdAt).toISOString(),
    lastSignInAt: account.lastSignInAt === undefined ? null : new Date(account.lastSignInAt).toISOString(),
  };
}

export const accountRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const { store } = context;
  const config = { right: 'accounts:manage' } as const;

  app.get('/accounts', { config }, async (): Promise<AccountSummary[]> => (await store.listAccounts()).map(toAccountSummary));

  app.post(
    '/accounts',
    {
      config,
      schema: {
        body: z.strictObject({
          email,
          role,
          password: z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH),
        }),
      },
    },
    async (request, reply) => {
      const { email: address, role: newRole, password } = request.body;
      const passwordHash = await hashPassword(password);
      const created = await addAccount(store, actingOf(request, context), { email: address, role: newRole, passwordHash });
      if (created.kind === 'exists') throw conflict('An account with that address already exists.');
      return reply.code(201).send(toAccountSummary(created.account));
    },
  );

  app.patch(
    '/accounts/:email',
    { config, schema: { params: accountParams, body: z.strictObject({ role }) } },
    async (request): Promise<AccountSummary> => {
      const newRole = request.body.role;
      const result = await changeTeamRole(store, actingOf(request, context), request.params.email, newRole, context.siteHours());
      if (result.kind === 'no-account') throw notFound(NO_ACCOUNT);
      if (result.kind === 'last-admin') throw conflict(LAST_ADMIN);
      return toAccountSummary(result.account);
    },
  );

  app.delete('/accounts/:email', { config, schema: { params: accountParams } }, async (request, reply) => {
    const address = request.params.email;
    if (address === actorOf(request)) throw conflict('You cannot remove your own account: ask another admin to do it.');
    const result = await removeTeamAccount(store, actingOf(request, context), address, context.siteHours());
    if (result.kind === 'no-account') throw notFound(NO_ACCOUNT);
    if (result.kind === 'last-admin') throw conflict(LAST_ADMIN);
    return reply.code(204).send();
  });
};
