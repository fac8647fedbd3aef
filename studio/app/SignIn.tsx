// The studio's sign-in: the team's e-mail address and password (the accounts `npm run users` keeps),
// and the server's plain answer beside the password when it refuses them.
import { css } from '@emotion/react';
import { useState } from 'react';
import { api, ApiError, type Session } from './api.ts';
import { FormError } from './form-parts.tsx';
import { ui } from './ui.ts';

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main css={css({ maxWidth: 420, margin: '10vh auto', padding: 24 })}>
      <h1 css={css({ fontSize: 26 })}>Sign in to the content studio</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError('');
          try {
            onSignedIn(await api.signIn(email, password));
          } catch (failure) {
            setError(failure instanceof ApiError ? failure.message : 'Signing in did not work.');
          } finally {
            setBusy(false);
          }
        }}
      >
        <label css={ui.field}>
          <span css={ui.label}>Email</span>
          <input
            css={ui.input}
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
          />
        </label>
        <label css={ui.field}>
          <span css={ui.label}>Password</span>
          <input
            css={ui.input}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'sign-in-error' : undefined}
          />
        </label>
        <FormError id="sign-in-error" error={error} />
        <button type="submit" css={ui.button} disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
