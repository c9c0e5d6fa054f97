/**
 * The page: the sign-in form until a key works, then the shell with navigation and the current view. A share
 * link (`#/s/<token>`) is shown first, with or without a key: the person opening it usually has none.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { Api, VidxError, type Me } from './api.js';
import { SessionContext, type Session } from './context.js';
import { t, useLang } from './i18n.js';
import { forgetKey, storedKey, storeKey } from './session.js';
import { Shell } from './Shell.js';
import { SignIn } from './views/SignIn.js';
import { DialogHost } from './components/Dialog.js';
import { useSharedToken } from './router.js';
import { Shared } from './views/Shared.js';

/** How long a notice (not an error) stays. */
const NOTICE_MS = 6_000;

/**
 * The whole page: sign-in until a key works, then the shell; a live status line for messages.
 * @example
 * render(<App />, document.getElementById('app')!);
 */
export function App() {
  useLang();
  const [key, setKey] = useState<string | null>(storedKey());
  const [me, setMe] = useState<Me | null>(null);
  const [status, setStatus] = useState<{ message: string; kind: 'info' | 'error' } | null>(null);
  const api = useMemo(() => (key ? new Api(key) : null), [key]);
  const shared = useSharedToken();

  useEffect(() => {
    if (!api || shared) return;
    api.me().then(setMe, (e: unknown) => {
      // A remembered key that was revoked: back to the form, with the reason.
      forgetKey();
      setKey(null);
      setStatus({ message: e instanceof VidxError && e.status === 401 ? t('wrongKey') : String(e), kind: 'error' });
    });
  }, [api, shared]);

  const notify = useCallback((message: string, kind: 'info' | 'error' = 'info') => setStatus({ message, kind }), []);
  // Notices close by themselves, and when the view changes; errors stay until they are closed.
  useEffect(() => {
    if (status?.kind !== 'info') return;
    const timer = setTimeout(() => setStatus((s) => (s === status ? null : s)), NOTICE_MS);
    const leave = () => setStatus((s) => (s?.kind === 'info' ? null : s));
    addEventListener('hashchange', leave);
    return () => {
      clearTimeout(timer);
      removeEventListener('hashchange', leave);
    };
  }, [status]);
  const signIn = async (candidate: string, remember: boolean): Promise<void> => {
    const who = await new Api(candidate).me();
    storeKey(candidate, remember);
    setMe(who);
    setStatus(null);
    setKey(candidate);
  };
  const signOut = () => {
    forgetKey();
    setKey(null);
    setMe(null);
    setStatus(null);
  };
  const session: Session | null = useMemo(() => (api && me ? { api, me, notify } : null), [api, me, notify]);

  return (
    <>
      {/* Focus, not navigation: "#main" as a hash would be read as a route and leave the view. */}
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link by convention; see the comment above. */}
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>{t('skipTo')}</a>
      {shared ? (
        <Shared token={shared} />
      ) : session ? (
        <SessionContext.Provider value={session}>
          <Shell onSignOut={signOut} />
        </SessionContext.Provider>
      ) : key ? (
        <p class="center" role="status">{t('loading')}</p>
      ) : (
        <SignIn onSignIn={signIn} />
      )}
      <DialogHost />
      <p class={`status ${status?.kind ?? ''}`} role={status?.kind === 'error' ? 'alert' : 'status'} aria-live="polite">
        {status?.message}
        {status && <button type="button" class="link" aria-label={t('close')} title={t('close')} onClick={() => setStatus(null)}>×</button>}
      </p>
    </>
  );
}
