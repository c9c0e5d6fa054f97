/** What every view reads: the API client for the signed-in key, who that key is, and a status line. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api, Me } from './api.js';

/** The signed-in session. */
export interface Session {
  api: Api;
  me: Me;
  /** Shows a message in the page's live status line (read out by screen readers). */
  notify: (message: string, kind?: 'info' | 'error') => void;
}

/** Provided by the App once signed in. */
export const SessionContext = createContext<Session | null>(null);

/**
 * The session; only views inside the signed-in shell call it.
 * @example
 * const { api, notify } = useSession();
 */
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the signed-in shell');
  return s;
}
