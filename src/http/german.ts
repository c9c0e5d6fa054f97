/**
 * Which language an answer speaks, and zod's validation messages in German. Requests that prefer German
 * (`Accept-Language: de`; the web page sends the language it shows) get their error texts from the German
 * table of src/messages, made from each problem's message key; zod's own wording comes from zod's German
 * locale. Every problem carries a key (services/errors.ts), so none stays English.
 */
import { z } from '@hono/zod-openapi';
import { render, type Lang } from '../messages/index.js';
import { issueMessage } from './zod-messages.js';

/**
 * Whether an Accept-Language header prefers German to English (q-values honoured; `de-AT` is German).
 * @example
 * prefersGerman('de-DE,de;q=0.9,en;q=0.8'); // true
 * prefersGerman('en-GB,de;q=0.5'); // false
 */
export function prefersGerman(header: string | undefined): boolean {
  return readerLanguage(header) === 'de';
}

/**
 * Which of vidx's languages an Accept-Language header asks for: the one it ranks first, or null when it
 * names neither (no header, `*`, only other languages), so the answer may keep a language of its own.
 * @example
 * readerLanguage('de-DE,de;q=0.9,en;q=0.8'); // 'de'
 * readerLanguage('*'); // null
 */
export function readerLanguage(header: string | undefined): Lang | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.lang === 'de' || x.lang === 'en')
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  const first = ranked[0]?.lang;
  return first === 'de' || first === 'en' ? first : null;
}

/**
 * The language a request reads answers in: German when its Accept-Language prefers German, else English.
 * @example
 * answerLanguage(c); // 'de' for Accept-Language: de-AT
 */
export function answerLanguage(c: { req: { header(name: string): string | undefined } }): Lang {
  return prefersGerman(c.req.header('accept-language')) ? 'de' : 'en';
}

const de = z.locales.de().localeError;
const en = z.locales.en().localeError;
const text = (m: ReturnType<typeof de>) => (typeof m === 'string' ? m : (m?.message ?? ''));

/**
 * A validation issue's message in German: from the German table where vidx wrote the message (a pattern
 * rule, a custom check), zod's German wording where the message is zod's own, else as it is.
 * @example
 * germanIssue(issue); // 'Zu klein: erwartet, dass string >=1 Zeichen hat'
 */
export function germanIssue(issue: z.core.$ZodIssue): string {
  const keyed = issueMessage(issue);
  if (keyed) return render(keyed, 'de');
  // After parsing, zod no longer knows what it received: "erhalten undefined" would be wrong, so it goes.
  if (text(en(issue as never)) === issue.message) return text(de(issue as never)).replace(/, erhalten undefined$/, '');
  return issue.message;
}
