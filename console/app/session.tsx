// Who is signed in and the API client, for every screen: `useSession().can(action)` decides which
// buttons to show (the server checks every call again).
import { createContext, useContext } from 'react';
import type { Action, SessionInfo } from '../api-types.ts';
import type { ConsoleApi } from './api.ts';

export type ConsoleSession = {
  readonly info: SessionInfo;
  readonly api: ConsoleApi;
  can(action: Action): boolean;
  signOut(): Promise<void>;
};

const SessionContext = createContext<ConsoleSession | null>(null);
export const SessionProvider = SessionContext.Provider;

export function useSession(): ConsoleSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is used outside the signed-in console');
  return session;
}
