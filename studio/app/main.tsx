// The studio's browser app: sign in when the studio asks for it, then the studio itself.
import createCache from '@emotion/cache';
import { CacheProvider, Global, css } from '@emotion/react';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { api, ApiError, type Session } from './api.ts';
import { Studio } from './Studio.tsx';
import { color, font, ui } from './ui.ts';
import { FormError } from './form-parts.tsx';

function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    api
      .session()
      .then(setSession, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The studio cannot be reached.'));
  }, []);

  if (error) {
    return (
      <p role="alert" css={[ui.errorBanner, css({ margin: 24 })]}>
        {error}
      </p>
    );
  }
  if (!session) return <p role="status">Opening the studio…</p>;
  if (!session.user) return <SignIn onSignedIn={setSession} />;
  return (
    <Studio
      user={session.user}
      onSignOut={
        session.signInRequired
          ? async (everywhere: boolean) => {
              // A session that has already ended is signed out all the same.
              await api.signOut(everywhere).catch(() => undefined);
              setSession({ signInRequired: true, user: null });
            }
          : undefined
      }
    />
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [name, setName] = useState('');
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
            onSignedIn(await api.signIn(name, password));
          } catch (failure) {
            setError(failure instanceof ApiError ? failure.message : 'Signing in did not work.');
          } finally {
            setBusy(false);
          }
        }}
      >
        <label css={ui.field}>
          <span css={ui.label}>Name</span>
          <input css={ui.input} autoComplete="username" value={name} onChange={(event) => setName(event.target.value)} required />
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

const globalStyles = css({
  '*, *::before, *::after': { boxSizing: 'border-box' },
  body: {
    margin: 0,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    color: color.text,
    background: color.surface,
    lineHeight: 1.45,
  },
  code: { fontFamily: font.mono },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CacheProvider value={createCache({ key: 'studio' })}>
      <Global styles={globalStyles} />
      <App />
    </CacheProvider>
  </StrictMode>,
);
