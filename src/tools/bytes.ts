import type { Lang } from '../messages/index.js';

/**
 * A size in bytes as people read it: SI units (B, kB, MB, GB, TB: powers of 1000, as file managers and the
 * model hub show them), one decimal under 100 and none from there, with the language's decimal mark. The one
 * byte formatter of vidx: the CLI and the web page both use it.
 * @example
 * formatBytes(45_300); // '45.3 kB'
 * formatBytes(45_300, 'de'); // '45,3 kB'
 * formatBytes(152_000_000); // '152 MB'
 */
export function formatBytes(n: number, language: Lang = 'en'): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  const digits = u === 0 || Math.abs(v) >= 100 ? 0 : 1;
  const number = new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  return `${number.format(v)} ${units[u]}`;
}
