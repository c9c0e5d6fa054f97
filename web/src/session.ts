/**
 * Where the key lives: this tab only (sessionStorage), or this browser (localStorage) when the user ticks
 * "remember". It is read by nothing but the API client.
 */
const NAME = 'vidx.key';

/**
 * The stored key, if any.
 * @example
 * const key = storedKey();
 */
export function storedKey(): string | null {
  return sessionStorage.getItem(NAME) ?? localStorage.getItem(NAME);
}

/**
 * Keeps the key for this tab, or for this browser when `remember` is set.
 * @example
 * storeKey('vidx_…', false);
 */
export function storeKey(key: string, remember: boolean): void {
  forgetKey();
  (remember ? localStorage : sessionStorage).setItem(NAME, key);
}

/**
 * Removes the key everywhere (sign out).
 * @example
 * forgetKey();
 */
export function forgetKey(): void {
  sessionStorage.removeItem(NAME);
  localStorage.removeItem(NAME);
}
