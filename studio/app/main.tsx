// The studio's browser app: sign in when the studio asks for it, then the studio itself.
import createCache from '@emotion/cache';
import { CacheProvider, Global, css } from '@emotion/react';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { api, ApiError, type Session } from './api.ts';
import { setTeamTimeZone } from './local-time.ts';
import { SignIn } from './SignIn.tsx';
import { Studio } from './Studio.tsx';
import { color, font, ui } from './ui.ts';

function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    api.session().then(
      (answer) => {
        setTeamTimeZone(answer.timeZone);
        setSession(answer);
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The studio cannot be reached.'),
    );
  }, []);

  if (error) {
    return (
      <p role="alert" css={[ui.errorBanner, css({ margin: 24 })]}>
        {error}
      </p>
    );
  }
  if (!session) return <p role="status">Opening the studio…</p>;
  if (!session.user)
    return (
      <SignIn
        onSignedIn={(answer) => {
          setTeamTimeZone(answer.timeZone);
          setSession(answer);
        }}
      />
    );
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
