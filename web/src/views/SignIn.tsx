/** The sign-in form: one field labelled "API key", a "remember" box, the first-run hint and a clear refusal. */
import { useEffect, useState } from 'preact/hooks';
import { type Health, VidxError } from '../api.js';
import { LangSwitch } from '../components/LangSwitch.js';
import { t } from '../i18n.js';

/** The hint that fits how this server's admin key was made; a general one when the server does not say. */
function keyHint({ admin_key_file: file, admin_key_source: source }: Pick<Health, 'admin_key_file' | 'admin_key_source'>): string {
  if (source === 'file' && file) return t('firstRunHint', file);
  if (source === 'env') return t('envKeyHint');
  if (source === 'existing') return t('existingKeyHint');
  return t('signInHint');
}

/**
 * The sign-in form; `onSignIn` checks the key with the server and throws a VidxError when it is refused.
 * @example
 * <SignIn onSignIn={(key, remember) => check(key, remember)} />
 */
export function SignIn({ onSignIn }: { onSignIn: (key: string, remember: boolean) => Promise<void> }) {
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Where this server's admin key is (it says so only on this machine, GET /health without a key).
  const [keyFrom, setKeyFrom] = useState<Pick<Health, 'admin_key_file' | 'admin_key_source'>>({});
  useEffect(() => {
    fetch('/health').then((r) => r.json() as Promise<Health>).then((h) => setKeyFrom(h), () => undefined);
  }, []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await onSignIn(key.trim(), remember);
    } catch (err) {
      setError(err instanceof VidxError && err.status === 401 ? t('wrongKey') : t('error', (err as Error).message));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <header class="row between"><h1 class="logo">vidx</h1><LangSwitch /></header>
      <form onSubmit={submit} class="card stack">
        <h2>{t('signIn')}</h2>
        <label for="api-key">{t('apiKey')}</label>
        <input id="api-key" type="password" autocomplete="current-password" required spellcheck={false}
          value={key} onInput={(e) => setKey(e.currentTarget.value)} aria-describedby="key-hint" aria-invalid={error ? true : undefined} />
        <label class="check"><input type="checkbox" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} /> {t('remember')}</label>
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit" class="primary" disabled={busy || !key.trim()}>{t('signIn')}</button>
        <p id="key-hint" class="hint">{keyHint(keyFrom)} {t('keyStays')}</p>
      </form>
    </main>
  );
}
