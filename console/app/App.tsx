// The console: asks who is signed in, shows the sign-in screen while nobody is, then the screens. The
// first screen is "Call now" for a salesperson (the leads waiting for them), Health for everyone else
// who reads the leads (an admin watches the relay), and a sentence for an editor.
// A 401 from any call returns to the sign-in screen on the same address, so signing in again lands
// where the person was.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import type { SessionInfo } from '../api-types.ts';
import { AnalyticsScreen } from './analytics/AnalyticsScreen.tsx';
import { messageOf, type ConsoleApi } from './api.ts';
import { AuditScreen } from './audit/AuditScreen.tsx';
import { CallNowScreen } from './call-now/CallNowScreen.tsx';
import { HealthScreen } from './health/HealthScreen.tsx';
import { InboxScreen } from './inbox/InboxScreen.tsx';
import { Layout } from './layout/Layout.tsx';
import { LeadScreen } from './lead/LeadScreen.tsx';
import { ErrorMessage } from './parts/messages.tsx';
import { SessionProvider, type ConsoleSession } from './session.tsx';
import { SettingsScreen } from './settings/SettingsScreen.tsx';
import { SpamScreen } from './spam/SpamScreen.tsx';
import { SpeedScreen } from './speed/SpeedScreen.tsx';
import { SignIn } from './sign-in/SignIn.tsx';

const SESSION_ENDED = 'Your session has ended. Sign in again to carry on.';

type SignInState = { status: 'checking' } | { status: 'failed'; error: string } | { status: 'signed-out'; notice?: string };

export function App({ api }: { api: ConsoleApi }) {
  const [info, setInfo] = useState<SessionInfo | null>(null);
  const [signIn, setSignIn] = useState<SignInState>({ status: 'checking' });

  useEffect(() => {
    api.onSignedOut = () => {
      setInfo(null);
      setSignIn({ status: 'signed-out', notice: SESSION_ENDED });
    };
    let current = true;
    api.session().then(
      (session) => {
        if (!current) return;
        if (session) setInfo(session);
        else setSignIn({ status: 'signed-out' });
      },
      (failure: unknown) => current && setSignIn({ status: 'failed', error: messageOf(failure) }),
    );
    return () => {
      current = false;
      api.onSignedOut = () => undefined;
    };
  }, [api]);

  const signOut = useCallback(async () => {
    // A session the server has already ended is signed out all the same.
    await api.signOut().catch(() => undefined);
    setInfo(null);
    setSignIn({ status: 'signed-out' });
  }, [api]);

  const session = useMemo<ConsoleSession | null>(
    () => (info ? { info, api, can: (action) => info.allowed.includes(action), signOut } : null),
    [info, api, signOut],
  );

  if (!session) {
    if (signIn.status === 'checking') return <p role="status">Opening the console…</p>;
    if (signIn.status === 'failed') return <ErrorMessage>{signIn.error}</ErrorMessage>;
    return <SignIn api={api} notice={signIn.notice} onSignedIn={setInfo} />;
  }
  return (
    <SessionProvider value={session}>
      <Routes>
        <Route element={<Layout />}>
          <Route
            index
            element={
              session.info.role === 'sales' ? (
                <Navigate to="/call-now" replace />
              ) : session.can('leads:read') ? (
                <HealthScreen />
              ) : (
                <p role="status">This account has nothing to read in the console: it is for the content studio.</p>
              )
            }
          />
          <Route path="call-now" element={<CallNowScreen />} />
          <Route path="health" element={<HealthScreen />} />
          <Route path="leads" element={<InboxScreen />} />
          <Route path="leads/:id" element={<LeadScreen />} />
          <Route path="spam" element={<SpamScreen />} />
          <Route path="analytics" element={<AnalyticsScreen />} />
          <Route path="speed" element={<SpeedScreen />} />
          <Route path="audit" element={<AuditScreen />} />
          <Route path="settings" element={<SettingsScreen />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </SessionProvider>
  );
}
