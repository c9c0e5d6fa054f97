/**
 * Error details in German for requests that ask for German (`Accept-Language: de`): the web page sends
 * the language it shows. Services write their messages in English; this module, in the HTTP layer, says
 * the ones a person meets in German: validation messages through zod's German locale, the others through
 * one table of patterns. A message without a German form stays English.
 */
import { z } from '@hono/zod-openapi';

/**
 * Whether an Accept-Language header prefers German to English (q-values honoured; `de-AT` is German).
 * @example
 * prefersGerman('de-DE,de;q=0.9,en;q=0.8'); // true
 * prefersGerman('en-GB,de;q=0.5'); // false
 */
export function prefersGerman(header: string | undefined): boolean {
  if (!header) return false;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.lang === 'de' || x.lang === 'en')
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.lang === 'de';
}

/** Nouns of "… not found" messages. */
const NOUNS: Record<string, string> = {
  collection: 'Sammlung', 'media item': 'Eintrag', task: 'Aufgabe', folder: 'Ordner', person: 'Person', webhook: 'Webhook',
  key: 'Schlüssel', share: 'Freigabe', model: 'Modell',
};

/** English message patterns and their German form; the first that matches wins. */
const PATTERNS: [RegExp, (...m: string[]) => string][] = [
  [/^path: (.*)$/, (inner) => `Pfad: ${translate(inner, PATTERNS) ?? inner}`],
  [/^([a-z ]+) "(.*)" not found$/, (what, id) => `${NOUNS[what] ?? what} „${id}“ nicht gefunden`],
  [/^collection "(.*)" already exists$/, (id) => `Die Sammlung „${id}“ gibt es schon`],
  [/^collection "(.*)" belongs to another owner$/, (id) => `Die Sammlung „${id}“ gehört jemand anderem`],
  [/^missing x-api-key header/, () => 'Der API-Schlüssel fehlt (Kopfzeile x-api-key)'],
  [/^unknown API key$/, () => 'Diesen API-Schlüssel kennt der Server nicht'],
  [/^this needs an admin key$/, () => 'Das braucht einen Admin-Schlüssel'],
  [/^only admins can create public collections$/, () => 'Nur Admins können öffentliche Sammlungen anlegen'],
  [/^only admins can make a collection public$/, () => 'Nur Admins können eine Sammlung öffentlich machen'],
  [/^path "(.*)" is outside the configured media roots \(VIDX_MEDIA_ROOTS\)(?:; allowed: (.*))?$/, (p, roots) => `Der Pfad „${p}“ liegt außerhalb der Medienordner (VIDX_MEDIA_ROOTS)${roots ? `; erlaubt sind: ${roots}` : ''}`],
  [/^path "(.*)" is outside the configured media roots$/, (p) => `Der Pfad „${p}“ liegt außerhalb der Medienordner`],
  [/^path "(.*)" does not exist(?: in the configured media roots)?$/, (p) => `Den Pfad „${p}“ gibt es nicht`],
  [/^path "(.*)" is not a directory$/, (p) => `Der Pfad „${p}“ ist kein Ordner`],
  [/^path "(.*)" must be absolute$/, (p) => `Der Pfad „${p}“ muss absolut sein (mit / beginnen)`],
  [/^path "(.*)" is inside vidx's own data folder, which is never read as media$/, (p) => `Der Pfad „${p}“ liegt in vidx’ eigenem Datenordner, der nie als Medien gelesen wird`],
  [/^path "(.*)" leads \(through a symbolic link\) outside the configured media roots/, (p) => `Der Pfad „${p}“ führt (über einen Link) aus den Medienordnern hinaus`],
  [/^folder (.*) is already in collection "(.*)"$/, (p, c) => `Der Ordner ${p} ist schon in der Sammlung „${c}“`],
  [/^folder (.*) overlaps folder .* \((.*)\) of collection "(.*)"$/, (p, o, c) => `Der Ordner ${p} überschneidet sich mit ${o} in der Sammlung „${c}“`],
  [/^only a failed task can be retried; task (.*) is (\w+)$/, (id) => `Nur eine fehlgeschlagene Aufgabe lässt sich wiederholen (${id})`],
  [/^task (.*) cannot be retried: collection deleted/, () => 'Die Aufgabe lässt sich nicht wiederholen: ihre Sammlung wurde gelöscht'],
  [/^request body is larger than (\d+) bytes$/, (n) => `Die Anfrage ist größer als ${n} Bytes`],
  [/^upload "(.*)" makes the request larger than the limit of (\d+) bytes/, (f, n) => `Das Hochladen von „${f}“ überschreitet die Grenze von ${n} Bytes (VIDX_MAX_UPLOAD_MB)`],
  [/^body: not valid JSON/, () => 'Der Inhalt ist kein gültiges JSON'],
  [/^body: not valid UTF-8/, () => 'Der Inhalt ist kein gültiges UTF-8'],
  [/^content type "(.*)" is not accepted/, (t) => `Der Inhaltstyp „${t}“ wird nicht angenommen`],
  [/^media_ids: not in collection "(.*)": (.*)$/, (c, ids) => `media_ids: nicht in der Sammlung „${c}“: ${ids}`],
  [/^start_time: (.*) s is past the end of the item \((.*) s\)$/, (t, d) => `start_time: ${t} s liegt hinter dem Ende (${d} s)`],
  [/^model (.*) is being pulled; remove it when the pull has ended$/, (m) => `Das Modell ${m} wird gerade geladen; entferne es, wenn das fertig ist`],
  [/^this share link is unknown, expired or revoked$/, () => 'Dieser Freigabe-Link ist unbekannt, abgelaufen oder widerrufen'],
  [/^file not found$/, () => 'Datei nicht gefunden'],
  [/^language: (.*)$/, (inner) => `language: ${translate(inner, PATTERNS) ?? inner}`],
  [/^no transcript or subtitles in "(.*)": the item has lines in (.*)$/, (l, has) => `Kein Transkript und keine Untertitel in „${l}“: der Eintrag hat Zeilen in ${has}`],
  [/^no transcript or subtitles in "(.*)": the item has only its transcript, in (.*)$/, (l, t) => `Kein Transkript und keine Untertitel in „${l}“: der Eintrag hat nur sein Transkript, in ${t}`],
  [/^no transcript or subtitles in "(.*)": the item has no transcript$/, (l) => `Kein Transkript und keine Untertitel in „${l}“: der Eintrag hat kein Transkript`],
];

/** Field messages vidx writes itself (custom rules), in German. */
const FIELD_PATTERNS: [RegExp, (...m: string[]) => string][] = [
  [/^must match (.*)$/, (p) => `muss ${p} entsprechen`],
  [/^unknown field$/, () => 'unbekanntes Feld'],
  [/^required$/, () => 'fehlt'],
  [/^nested deeper than (\d+) levels$/, (n) => `tiefer als ${n} Ebenen verschachtelt`],
  [/^larger than (\d+) KiB as JSON \((\d+) KiB\)$/, (n, got) => `größer als ${n} KiB als JSON (${got} KiB)`],
  [/^not well-formed Unicode$/, () => 'kein gültiges Unicode'],
  [/^not valid UTF-8$/, () => 'kein gültiges UTF-8'],
  [/^must be an absolute http or https URL$/, () => 'muss eine absolute http- oder https-URL sein'],
  [/^exactly one of path, url or content is required$/, () => 'genau eines von path, url oder content ist nötig'],
  [/^give title, additional_metadata or both$/, () => 'gib title, additional_metadata oder beides an'],
  [/^must be a language tag such as (.*) or (.*)$/, (some, last) => `muss eine Sprachangabe wie ${some} oder ${last} sein`],
  [/^(.*)$/, (m) => translate(m, PATTERNS) ?? m],
];

function translate(text: string, table: [RegExp, (...m: string[]) => string][]): string | null {
  for (const [re, to] of table) {
    const m = re.exec(text);
    if (m) return to(...m.slice(1));
  }
  return null;
}

/**
 * A problem's detail in German, or the English text when there is no German form.
 * @example
 * germanDetail('collection "trips" not found'); // 'Sammlung „trips“ nicht gefunden'
 */
export function germanDetail(english: string): string {
  return translate(english, PATTERNS) ?? english;
}

const de = z.locales.de().localeError;
const en = z.locales.en().localeError;
const text = (m: ReturnType<typeof de>) => (typeof m === 'string' ? m : (m?.message ?? ''));

/**
 * A validation issue's message in German: zod's German wording where the message is zod's own, the table
 * above where vidx wrote it (a pattern rule, a custom check).
 * @example
 * germanIssue(issue); // 'Zu klein: erwartet, dass string >=1 Zeichen hat'
 */
export function germanIssue(issue: z.core.$ZodIssue): string {
  // After parsing, zod no longer knows what it received: "erhalten undefined" would be wrong, so it goes.
  if (text(en(issue as never)) === issue.message) return text(de(issue as never)).replace(/, erhalten undefined$/, '');
  return translate(issue.message, FIELD_PATTERNS) ?? issue.message;
}

/**
 * A field message vidx built from a problem (not from zod), in German.
 * @example
 * germanField('unknown field'); // 'unbekanntes Feld'
 */
export function germanField(english: string): string {
  return translate(english, FIELD_PATTERNS) ?? english;
}
