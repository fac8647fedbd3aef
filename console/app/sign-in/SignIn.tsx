// The sign-in screen, shown in place of any console address while nobody is signed in: the address
// stays as it was, so after signing in the person sees the screen they were headed to.
import { useId, useState, type FormEvent } from 'react';
import type { SessionInfo } from '../../api-types.ts';
import { ApiError, messageOf, type ConsoleApi } from '../api.ts';
import { Field } from '../parts/Field.tsx';
import { formatSeconds } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';

type Problem = { message: string; fields: { email?: string; password?: string } };

function problemOf(failure: unknown): Problem {
  if (!(failure instanceof ApiError)) return { message: messageOf(failure), fields: {} };
  const wait = failure.retryAfterSeconds === undefined ? '' : ` You can try again in ${formatSeconds(failure.retryAfterSeconds)}.`;
  return { message: `${failure.message}${wait}`, fields: { email: failure.fields.email, password: failure.fields.password } };
}

export function SignIn({ api, notice, onSignedIn }: { api: ConsoleApi; notice?: string; onSignedIn: (session: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const messageId = useId();
  const formMessage = problem?.message ? messageId : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      email: email.trim() ? undefined : 'Enter your e-mail address.',
      password: password ? undefined : 'Enter your password.',
    };
    if (missing.email || missing.password) {
      setProblem({ message: '', fields: missing });
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      onSignedIn(await api.signIn(email.trim(), password));
    } catch (failure) {
      setProblem(problemOf(failure));
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in" tabIndex={-1}>
      <h1>Sign in to the console</h1>
      {notice ? <p className="message message-status">{notice}</p> : null}
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Field label="E-mail address" error={problem?.fields.email} alsoDescribedBy={formMessage}>
          {(control) => (
            <input
              {...control}
              type="email"
              name="email"
              autoComplete="username"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field label="Password" error={problem?.fields.password} alsoDescribedBy={formMessage}>
          {(control) => (
            <input
              {...control}
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <ErrorMessage id={messageId}>{problem?.message}</ErrorMessage>
        <button type="submit" className="button button-primary" disabled={busy} aria-disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
