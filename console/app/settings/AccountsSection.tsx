// The team's accounts, for admins: the list, a new account with its role and first password, a role
// changed, an account removed after a confirmation.
import { useState, type FormEvent } from 'react';
import { ROLE_SUMMARIES, ROLES } from '../../../back-office/roles.ts';
import type { AccountSummary, Role } from '../../api-types.ts';
import { ApiError, messageOf } from '../api.ts';
import { Dialog } from '../parts/Dialog.tsx';
import { Field } from '../parts/Field.tsx';
import { formatTime } from '../parts/format.tsx';
import { ErrorMessage, LoadState, StatusMessage } from '../parts/messages.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';

export function AccountsSection() {
  const { api } = useSession();
  const accounts = useLoad(api.accounts, 'accounts');
  const [status, setStatus] = useState('');
  const changed = (message: string) => {
    setStatus(message);
    accounts.reload();
  };
  return (
    <section className="panel" aria-labelledby="settings-accounts">
      <h2 id="settings-accounts">Accounts</h2>
      <StatusMessage>{status}</StatusMessage>
      <LoadState loaded={accounts} what="the accounts">
        {(list) => <AccountTable accounts={list} onChanged={changed} />}
      </LoadState>
      <AddAccount onAdded={changed} />
    </section>
  );
}

function AccountTable({ accounts, onChanged }: { accounts: AccountSummary[]; onChanged: (message: string) => void }) {
  const { api } = useSession();
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState('');

  async function run(action: () => Promise<unknown>, message: string) {
    setError('');
    try {
      await action();
      onChanged(message);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  return (
    <>
      <ScrollingTable caption="Accounts, with their roles">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Added</th>
            <th scope="col">Last signed in</th>
            <th scope="col">Remove</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => {
            const chosen = roles[account.email] ?? account.role;
            return (
              <tr key={account.email}>
                <th scope="row">{account.email}</th>
                <td>
                  <div className="inline-control">
                    <select
                      aria-label={`Role of ${account.email}`}
                      value={chosen}
                      onChange={(event) => setRoles((previous) => ({ ...previous, [account.email]: event.target.value as Role }))}
                    >
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="button"
                      disabled={chosen === account.role}
                      onClick={() =>
                        void run(
                          () => api.changeRole(account.email, chosen),
                          `${account.email} is now ${chosen} and was signed out everywhere, to sign in again with the new role.`,
                        )
                      }
                    >
                      Change role
                    </button>
                  </div>
                </td>
                <td>{formatTime(account.createdAt)}</td>
                <td>{account.lastSignInAt ? formatTime(account.lastSignInAt) : 'Never'}</td>
                <td>
                  <button type="button" className="button button-danger" onClick={() => setRemoving(account.email)}>
                    Remove<span className="visually-hidden"> {account.email}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </ScrollingTable>
      <ErrorMessage>{error}</ErrorMessage>
      {removing ? (
        <Dialog title="Remove an account" onClose={() => setRemoving(null)}>
          <p>{removing} will be signed out everywhere and can no longer sign in.</p>
          <div className="dialog-actions">
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                const email = removing;
                setRemoving(null);
                void run(() => api.removeAccount(email), `${email} was removed.`);
              }}
            >
              Remove {removing}
            </button>
            <button type="button" className="button" onClick={() => setRemoving(null)}>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}

type NewAccount = { email: string; role: Role; password: string };

function AddAccount({ onAdded }: { onAdded: (message: string) => void }) {
  const { api } = useSession();
  const [account, setAccount] = useState<NewAccount>({ email: '', role: 'viewer', password: '' });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    setFields({});
    try {
      await api.addAccount({ ...account, email: account.email.trim() });
      setAccount({ email: '', role: 'viewer', password: '' });
      onAdded(`${account.email.trim()} was added as ${account.role}.`);
    } catch (failure) {
      setError(messageOf(failure));
      if (failure instanceof ApiError) setFields(failure.fields);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="add-account" onSubmit={submit} aria-labelledby="add-account">
      <h3 id="add-account">Add an account</h3>
      <Field label="E-mail address" error={fields.email}>
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="off"
            value={account.email}
            onChange={(event) => setAccount({ ...account, email: event.target.value })}
          />
        )}
      </Field>
      <Field label="Role" error={fields.role} hint={`This role ${ROLE_SUMMARIES[account.role]}.`}>
        {(control) => (
          <select {...control} value={account.role} onChange={(event) => setAccount({ ...account, role: event.target.value as Role })}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="First password" error={fields.password} hint="They can sign in with it at once; tell it to them in person.">
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            value={account.password}
            onChange={(event) => setAccount({ ...account, password: event.target.value })}
          />
        )}
      </Field>
      <ErrorMessage>{error}</ErrorMessage>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add the account'}
      </button>
    </form>
  );
}
