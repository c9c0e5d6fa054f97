/**
 * Every phrase vidx writes around content, in English and German, in one place: the labels of visual
 * entries, quotes around on-screen text, the questions of collection suggestions and the line under a
 * search cluster. They are presentation only: none of their words go into the text index or into the
 * passages search returns (test/quality/templates.test.ts checks that against this module).
 */

/** The languages vidx writes in. */
export type Language = 'en' | 'de';

const PHRASES = {
  en: {
    onScreen: 'On screen',
    seen: 'Seen',
    quote: ['“', '”'],
    // The phrase is quoted, so any noun or verb phrase reads as a grammatical question.
    questions: ['What is said about “{p}”?', 'When is “{p}” shown?', 'Where does “{p}” come up?'],
    moments: ['moment', 'moments'],
    videos: ['video', 'videos'],
    in: 'in',
  },
  de: {
    onScreen: 'Text im Bild',
    seen: 'Zu sehen',
    quote: ['„', '“'],
    questions: ['Was wird zu „{p}“ gesagt?', 'Wann ist „{p}“ zu sehen?', 'Wo kommt „{p}“ vor?'],
    moments: ['Moment', 'Momente'],
    videos: ['Video', 'Videos'],
    in: 'in',
  },
} as const;

/** Labels older versions put into stored summaries ("Im Bild" was the German on-screen label of episodes). */
const OLD_LABELS = ['Im Bild'];

/**
 * Text in the quotation marks of the language.
 * @example
 * quote('Apfelkuchen Rezept', 'de'); // '„Apfelkuchen Rezept“'
 */
export function quote(text: string, language: Language): string {
  const [open, close] = PHRASES[language].quote;
  return `${open}${text}${close}`;
}

/**
 * The readable sentence of a visual entry (the API's visual `summary`): its on-screen text and tags.
 * @example
 * describeVisual(['Apfelkuchen Rezept'], ['Küche'], 'de'); // 'Text im Bild: „Apfelkuchen Rezept“. Zu sehen: Küche.'
 */
export function describeVisual(lines: string[], tags: string[], language: Language): string {
  const p = PHRASES[language];
  const parts: string[] = [];
  if (lines.length) parts.push(`${p.onScreen}: ${quote(lines.join(' / '), language)}.`);
  if (tags.length) parts.push(`${p.seen}: ${tags.join(', ')}.`);
  return parts.join(' ');
}

/**
 * An episode summary made of content only: the chosen spoken sentences, then the on-screen text in
 * quotes; visual tags only when nothing was said or shown as text. Empty when nothing was recognised
 * (what is missing, such as a speech model, is said in the task's warnings instead).
 * @example
 * episodeSummary(['The goalkeeper dives.'], ['Penalty Shot Training'], ['football'], 'en');
 * // 'The goalkeeper dives. “Penalty Shot Training”'
 */
export function episodeSummary(spoken: string[], screen: string[], tags: string[], language: Language): string {
  const parts = [...spoken];
  if (screen.length) parts.push(quote(screen.join(' / '), language));
  if (parts.length === 0 && tags.length) parts.push(`${tags.join(', ')}.`);
  const text = parts.join(' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The `n`-th question about a phrase (three forms take turns).
 * @example
 * questionAbout('penalty shot', 'en', 0); // 'What is said about “penalty shot”?'
 */
export function questionAbout(phrase: string, language: Language, n: number): string {
  const forms = PHRASES[language].questions;
  return forms[n % forms.length].replace('{p}', phrase);
}

/**
 * The line under a search cluster: how many moments in how many videos, and where.
 * @example
 * momentsLine(2, 1, 'final 0:52, final 1:10', 'en'); // '2 moments in 1 video: final 0:52, final 1:10'
 */
export function momentsLine(moments: number, videos: number, where: string, language: Language): string {
  const p = PHRASES[language];
  return `${moments} ${p.moments[moments === 1 ? 0 : 1]} ${p.in} ${videos} ${p.videos[videos === 1 ? 0 : 1]}: ${where}`;
}

const LABELS = [...new Set([...Object.values(PHRASES).flatMap((p) => [p.onScreen, p.seen]), ...OLD_LABELS])];
const LABEL_RE = new RegExp(`(?:${LABELS.map((l) => l.replace(/ /g, '\\s+')).join('|')}):\\s*`, 'gu');
const QUOTES_RE = /[“”„«»]/gu;

/**
 * Text without the labels and quotation marks of this module (for visual summaries stored by vidx).
 * @example
 * stripPresentation('On screen: “FINAL 2024”. Seen: stadium.'); // 'FINAL 2024. stadium.'
 */
export function stripPresentation(text: string): string {
  return text.replace(LABEL_RE, '').replace(QUOTES_RE, '').replace(/\s+/g, ' ').trim();
}

/**
 * Every word the phrases of this module add, lower-cased, in both languages (placeholders excluded):
 * what must never be found in the text index unless the content itself says it.
 * @example
 * templateWords().has('screen'); // true
 */
export function templateWords(): Set<string> {
  const texts = [...Object.values(PHRASES).flatMap((p) => [p.onScreen, p.seen, ...p.questions, ...p.moments, ...p.videos]), ...OLD_LABELS];
  const words = texts.flatMap((t) => t.replace('{p}', ' ').toLowerCase().match(/[\p{L}]+/gu) ?? []);
  return new Set(words);
}
