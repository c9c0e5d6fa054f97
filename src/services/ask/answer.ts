/**
 * The extractive answer: the moment whose line says most of what a question asks, quoted, with the item, its
 * time, and its date, place and speaker where known; for "when" the time the line names (else the recording
 * date), for "where" the place. Nothing is made up: a question no line answers gets no answer.
 */
import type { Lang } from '../../messages/index.js';
import { clock } from '../../tools/clock.js';
import type { Question } from './question.js';
import { wordsHeld } from './question.js';

/** A moment an answer may cite, as the search found it. */
export interface Citation {
  collection: string;
  media_id: string;
  title: string | null;
  start_time: number;
  end_time: number;
  /** The line that says it, whole. */
  quote: string;
  captured_at: string | null;
  /** What kind of date `captured_at` is: a recording date (`metadata`, `filename`) or only the file's. */
  captured_at_source: 'metadata' | 'filename' | 'file' | null;
  place: string | null;
  speaker: { person_id: string; name: string | null } | null;
}

/** The answer's sentence and the citations it rests on (indexes), or no text when nothing answers. */
export interface ExtractiveAnswer {
  text: string | null;
  cites: number[];
}

const MONTHS = {
  en: 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec',
  de: 'januar|februar|märz|maerz|april|mai|juni|juli|august|september|oktober|november|dezember',
};
const DAYS = { en: 'monday|tuesday|wednesday|thursday|friday|saturday|sunday', de: 'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag' };
const NUMBERS = {
  en: 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|midnight',
  de: 'eins|ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|mittag|mitternacht',
};
const ORDINAL = '\\d{1,2}(?:st|nd|rd|th|\\.)?';
/** Times and dates a line may name, longest first, with the word that leads into them. */
const WHEN: Record<Lang, RegExp> = {
  en: new RegExp(
    `\\b(?:(?:on|at|by|until|before|after|in|from|next|this|last)\\s+)?(?:the\\s+)?(?:(?:${DAYS.en})(?:\\s+(?:morning|afternoon|evening|night))?|(?:${ORDINAL}|[a-z]+(?:st|nd|rd|th))\\s+(?:of\\s+)?(?:${MONTHS.en})\\b|(?:${MONTHS.en})\\s+${ORDINAL}|(?:${MONTHS.en})|(?:half past|quarter past|quarter to)\\s+(?:${NUMBERS.en}|\\d{1,2})|\\d{1,2}(?::\\d{2})?\\s*(?:am|pm|o'clock)|(?:${NUMBERS.en}|\\d{1,2})(?::\\d{2})?(?:\\s+o'clock)?(?=\\s+(?:in the|tonight|tomorrow|sharp|and|at|on)|[.,!?;]|$)|tomorrow(?:\\s+(?:morning|afternoon|evening))?|tonight|today|yesterday|next week|next month|the evening|the morning)\\b`,
    'i',
  ),
  de: new RegExp(
    `(?:(?:am|um|im|bis|ab|vor|nach|nächsten|nächste|diesen|diese)\\s+)?(?:(?:${DAYS.de})(?:abend|morgen|mittag|nachmittag)?|${ORDINAL}\\s*(?:${MONTHS.de})|(?:${MONTHS.de})|halb\\s+(?:${NUMBERS.de}|\\d{1,2})|viertel\\s+(?:nach|vor)\\s+(?:${NUMBERS.de}|\\d{1,2})|\\d{1,2}(?:[:.]\\d{2})?\\s*uhr|(?:${NUMBERS.de})(?=\\s+uhr|[.,!?;]|\\s+(?:am|und|los))|übermorgen|morgen(?:\\s+(?:früh|abend|mittag))?|heute(?:\\s+abend)?|gestern|nächste woche|abends|morgens)(?![\\p{L}])`,
    'iu',
  ),
};

/**
 * The time or date a line names, as written there ("at nine", "on Saturday", "im März"), or null.
 * @example
 * timeIn('We leave the harbour at nine and come back in the evening.', 'en'); // 'at nine'
 */
export function timeIn(line: string, lang: Lang): string | null {
  return WHEN[lang].exec(line)?.[0]?.trim() ?? WHEN[lang === 'en' ? 'de' : 'en'].exec(line)?.[0]?.trim() ?? null;
}

/** The date of a recording as a reader of `lang` writes it. */
function dateText(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));
}

/** Lines before a line that its words may lean on ("*She* turns ninety" after "Grandma's birthday"). */
const CONTEXT_LINES = 2;

/**
 * The line that answers. What it must say: every word of a question of one or two words, else at least half
 * of them, where the line's item title and the lines just before it count too (the title says what every
 * line of an item is about). Of those, the line holding most words itself; for "when", one naming a time
 * first; else the one found first. A word the archive never says ("sardines") leaves a short question
 * unanswered rather than answered with a line that holds its other word.
 */
function answering(q: Question, lines: readonly Citation[]): number {
  const n = q.words.length;
  if (n === 0) return -1;
  const need = n <= 2 ? n : Math.ceil(n / 2);
  let best = -1;
  let bestScore = 0;
  lines.forEach((c, i) => {
    const own = wordsHeld(q.words, c.quote, q.lang);
    if (own === 0) return;
    const before = lines.slice(Math.max(0, i - CONTEXT_LINES), i).filter((b) => b.collection === c.collection && b.media_id === c.media_id && b.start_time < c.start_time);
    const around = [c.quote, c.title ?? '', ...before.map((b) => b.quote)].join(' \n ');
    if (wordsHeld(q.words, around, q.lang) < need) return;
    const score = own * 2 + (q.kind === 'when' && timeIn(c.quote, q.lang) ? 1 : 0);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
}

/**
 * The answer to `q` from the lines of the moments found for it (best moment first), or no text when none
 * of them says it; `cites` holds the index of the line that answers.
 * @example
 * extractiveAnswer(readQuestion('When do we leave the harbour?'), citations);
 * // { text: 'At nine — in “boat” at 0:05 (29 November 2026): “We leave the harbour at nine …”', cites: [0] }
 */
export function extractiveAnswer(q: Question, citations: readonly Citation[]): ExtractiveAnswer {
  const i = answering(q, citations);
  if (i < 0) return { text: null, cites: [] };
  const c = citations[i]!;
  const lead = q.kind === 'when' ? (timeIn(c.quote, q.lang) ?? recorded(c, q.lang)) : q.kind === 'where' ? c.place : null;
  return { text: sentence(c, lead, q.lang), cites: [i] };
}

/** The recording date, as the reader writes dates; none when only the file's date is known (a copy's date says nothing). */
function recorded(c: Citation, lang: Lang): string | null {
  return c.captured_at && c.captured_at_source !== 'file' ? dateText(c.captured_at, lang) : null;
}

/**
 * Where a moment is, from the index alone: the item, its time, and its date and place where known
 * (`in “boat” at 0:05 (14 March 2024, Lisbon, Portugal)`). A model's answer ends with it, so the times and
 * dates an answer names never come from the model.
 * @example
 * whereSaid(citation, 'de'); // 'in „boat“ bei 0:05'
 */
export function whereSaid(c: Citation, lang: Lang): string {
  const about = [recorded(c, lang), c.place].filter(Boolean).join(', ');
  const title = c.title ?? c.media_id;
  return lang === 'de' ? `in „${title}“ bei ${clock(c.start_time)}${about ? ` (${about})` : ''}` : `in “${title}” at ${clock(c.start_time)}${about ? ` (${about})` : ''}`;
}

/** The answer's sentence: what answers first (a time, a place), then where it is said, then the quote. */
function sentence(c: Citation, lead: string | null, lang: Lang): string {
  const who = c.speaker?.name ?? null;
  const said = lang === 'de'
    ? `${whereSaid(c, lang)}${who ? ` sagt ${who}` : ''}: „${c.quote}“`
    : `${whereSaid(c, lang)}${who ? `, ${who} says` : ''}: “${c.quote}”`;
  if (!lead) return `${said.charAt(0).toUpperCase()}${said.slice(1)}`;
  return `${lead.charAt(0).toUpperCase()}${lead.slice(1)} — ${said}`;
}
