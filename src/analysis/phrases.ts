/**
 * Every phrase vidx writes around content, in English and German, in one place: the labels of visual
 * entries, quotes around on-screen text, the questions of collection suggestions and the line under a
 * search cluster. They are presentation only: none of their words go into the text index or into the
 * passages search returns (test/quality/templates.test.ts checks that against this module).
 */
import type { Lang } from '../messages/index.js';

const PHRASES = {
  en: {
    onScreen: 'On screen',
    seen: 'Seen',
    quote: ['“', '”'],
    // The phrase is quoted, so any noun or verb phrase reads as a grammatical question.
    questions: {
      said: 'What is said about “{p}”?', shown: 'When is “{p}” shown?', photo: 'Which photo shows “{p}”?', photos: 'Which photos show “{p}”?',
      anywhere: 'Where does “{p}” come up?',
    },
    moments: ['moment', 'moments'],
    copies: ['copy', 'copies'],
    alsoIn: '(also in {n})',
    kinds: { video: ['video', 'videos'], audio: ['voice memo', 'voice memos'], image: ['photo', 'photos'] },
    named: { video: 'Video', audio: 'Voice memo', image: 'Photo' },
    part: '{kind}, part {n}',
    in: 'in',
    and: 'and',
  },
  de: {
    onScreen: 'Text im Bild',
    seen: 'Zu sehen',
    quote: ['„', '“'],
    questions: {
      said: 'Was wird zu „{p}“ gesagt?', shown: 'Wann wird „{p}“ gezeigt?', photo: 'Welches Foto zeigt „{p}“?', photos: 'Welche Fotos zeigen „{p}“?',
      anywhere: 'Wo kommt „{p}“ vor?',
    },
    moments: ['Moment', 'Momente'],
    copies: ['Kopie', 'Kopien'],
    alsoIn: '(auch in {n})',
    kinds: { video: ['Video', 'Videos'], audio: ['Sprachmemo', 'Sprachmemos'], image: ['Foto', 'Fotos'] },
    named: { video: 'Video', audio: 'Sprachmemo', image: 'Foto' },
    part: '{kind}, Teil {n}',
    in: 'in',
    and: 'und',
  },
} as const;

/** Labels older versions put into stored summaries ("Im Bild" was the German on-screen label of episodes). */
const OLD_LABELS = ['Im Bild'];
/** Sentences older versions stored as the summary of a picture with nothing recognised: never content. */
const OLD_PLACEHOLDERS = ['Picture without recognised text.', 'Bild ohne erkannten Text.'];

/**
 * Text in the quotation marks of the language.
 * @example
 * quote('Apfelkuchen Rezept', 'de'); // '„Apfelkuchen Rezept“'
 */
export function quote(text: string, language: Lang): string {
  const [open, close] = PHRASES[language].quote;
  return `${open}${text}${close}`;
}

/**
 * The readable sentence of a visual entry (the API's visual `summary`): its on-screen text and tags.
 * @example
 * describeVisual(['Apfelkuchen Rezept'], ['Küche'], 'de'); // 'Text im Bild: „Apfelkuchen Rezept“. Zu sehen: Küche.'
 */
export function describeVisual(lines: string[], tags: string[], language: Lang): string {
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
export function episodeSummary(spoken: string[], screen: string[], tags: string[], language: Lang): string {
  const parts = [...spoken];
  if (screen.length) parts.push(quote(screen.join(' / '), language));
  if (parts.length === 0 && tags.length) parts.push(`${tags.join(', ')}.`);
  const text = parts.join(' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The kinds of media vidx names. */
export type MediaKind = 'video' | 'audio' | 'image';

/**
 * How a question asks about a phrase, by where it was found: said (a transcript: subtitles or speech
 * recognition), shown on screen in videos (which have a time to ask for), shown in one photo or several
 * (which have none), or anywhere else (tags, or videos and photos together).
 */
export type QuestionKind = 'said' | 'shown' | 'photo' | 'photos' | 'anywhere';

/**
 * A question about a phrase, worded for where it was found (see {@link QuestionKind}). The phrase is
 * quoted, so it reads grammatically whatever it is.
 * @example
 * questionAbout('penalty shot', 'en', 'said'); // 'What is said about “penalty shot”?'
 * questionAbout('Apfelkuchen', 'de', 'shown'); // 'Wann wird „Apfelkuchen“ gezeigt?'
 * questionAbout('Lisbon', 'de', 'photo'); // 'Welches Foto zeigt „Lisbon“?'
 */
export function questionAbout(phrase: string, language: Lang, kind: QuestionKind): string {
  return PHRASES[language].questions[kind].replace('{p}', phrase);
}

/** "1 video", "2 photos": a count and the noun of a kind of media. */
function counted(n: number, kind: MediaKind, language: Lang): string {
  return `${n} ${PHRASES[language].kinds[kind][n === 1 ? 0 : 1]}`;
}

/**
 * Items joined as a list is read: "a, b and c" / "a, b und c".
 * @example
 * listed(['“Memo”', '“Talk”', '3 more'], 'en'); // '“Memo”, “Talk” and 3 more'
 */
export function listed(parts: string[], language: Lang): string {
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} ${PHRASES[language].and} ${parts[parts.length - 1]}`;
}

/**
 * The line under a search cluster: how many moments in how many items of each kind, and where. Photos
 * have one moment each, so a cluster of photos only counts them. `copies` other copies of the items (a
 * video and its copies count as one item) are said at the end.
 * @example
 * momentsLine(2, { video: 1 }, 'Final 0:52, Final 1:10', 'en'); // '2 moments in 1 video: Final 0:52, Final 1:10'
 * momentsLine(3, { video: 1, image: 2 }, 'Vlog 0:10, Beach, Garden', 'en'); // '3 moments in 1 video and 2 photos: …'
 * momentsLine(2, { image: 2 }, 'Beach, Garden', 'de'); // '2 Fotos: Beach, Garden'
 * momentsLine(1, { video: 1 }, 'Baking 0:01', 'de', 2); // '1 Moment in 1 Video: Baking 0:01 (auch in 2 Kopien)'
 */
export function momentsLine(moments: number, items: Partial<Record<MediaKind, number>>, where: string, language: Lang, copies = 0): string {
  const p = PHRASES[language];
  const also = copies > 0 ? ` ${p.alsoIn.replace('{n}', `${copies} ${p.copies[copies === 1 ? 0 : 1]}`)}` : '';
  const kinds = (['video', 'audio', 'image'] as const).filter((k) => (items[k] ?? 0) > 0);
  if (kinds.length === 1 && kinds[0] === 'image') return `${counted(items.image ?? 0, 'image', language)}: ${where}${also}`;
  const inItems = listed(kinds.map((k) => counted(items[k] ?? 0, k, language)), language);
  return `${moments} ${p.moments[moments === 1 ? 0 : 1]} ${p.in} ${inItems}: ${where}${also}`;
}

/**
 * How an item is named where its title is missing: "Video", "Voice memo", "Photo".
 * @example
 * kindName('audio', 'de'); // 'Sprachmemo'
 */
export function kindName(kind: MediaKind, language: Lang): string {
  return PHRASES[language].named[kind];
}

/**
 * The title of a chapter: its summary when it has words, else what it is: a photo is "Photo", a recording
 * "Voice memo, part 1" (audio) or "<title>, part 1" (video, "Video" without a title); a single chapter
 * needs no part number. Never a bare time.
 * @example
 * chapterTitle({ summary: '', kind: 'audio', title: null, index: 0, count: 2 }, 'en'); // 'Voice memo, part 1'
 * chapterTitle({ summary: '', kind: 'video', title: 'Garden', index: 1, count: 3 }, 'de'); // 'Garden, Teil 2'
 */
export function chapterTitle(c: { summary: string; kind: MediaKind; title: string | null; index: number; count: number }, language: Lang): string {
  if (/[\p{L}\p{N}]/u.test(c.summary)) return c.summary;
  if (c.kind === 'image') return kindName('image', language);
  const name = c.kind === 'video' && c.title?.trim() ? c.title.trim() : kindName(c.kind, language);
  return c.count > 1 ? PHRASES[language].part.replace('{kind}', name).replace('{n}', String(c.index + 1)) : name;
}

const LABELS = [...new Set([...Object.values(PHRASES).flatMap((p) => [p.onScreen, p.seen]), ...OLD_LABELS])];
const LABEL_RE = new RegExp(`(?:${LABELS.map((l) => l.replace(/ /g, '\\s+')).join('|')}):\\s*`, 'gu');
const QUOTES_RE = /[“”„«»]/gu;

/**
 * Text without the labels, quotation marks and old placeholder sentences of this module (for summaries stored by vidx).
 * @example
 * stripPresentation('On screen: “FINAL 2024”. Seen: stadium.'); // 'FINAL 2024. stadium.'
 */
export function stripPresentation(text: string): string {
  const content = OLD_PLACEHOLDERS.reduce((t, p) => t.split(p).join(' '), text);
  return content.replace(LABEL_RE, '').replace(QUOTES_RE, '').replace(/\s+/g, ' ').trim();
}

/**
 * Every word the phrases of this module add, lower-cased, in both languages (placeholders excluded):
 * what must never be found in the text index unless the content itself says it.
 * @example
 * templateWords().has('screen'); // true
 */
export function templateWords(): Set<string> {
  const texts = [
    ...Object.values(PHRASES).flatMap((p) => [
      p.onScreen, p.seen, ...Object.values(p.questions), ...p.moments, ...p.copies, p.alsoIn, ...Object.values(p.kinds).flat(), ...Object.values(p.named), p.part,
    ]),
    ...OLD_LABELS,
    ...OLD_PLACEHOLDERS,
  ];
  const words = texts.flatMap((t) => t.replace(/\{\w+\}/g, ' ').toLowerCase().match(/[\p{L}]+/gu) ?? []);
  return new Set(words);
}
