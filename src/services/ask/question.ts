/**
 * What a question asks, read without a model: its language, the kind of answer it wants (when, where, who,
 * how many, what) and its content words (what a line must say to answer it).
 */
import type { Lang } from '../../messages/index.js';
import { fold } from '../../tools/fold.js';
import { NON_CONTENT } from '../../tools/stopwords.js';

/** The kind of answer a question wants. */
export type AnswerKind = 'when' | 'where' | 'who' | 'how_many' | 'what';

/** A question as the extractive answer reads it. */
export interface Question {
  text: string;
  lang: Lang;
  kind: AnswerKind;
  /** Folded content words, in order: what the search looks for and an answering line must hold. */
  words: string[];
}

const KINDS: Record<Lang, [RegExp, AnswerKind][]> = {
  en: [
    [/^(when|what time|what date|which day|on which day|at what time)\b/, 'when'],
    [/^(where|in which (city|place|town|country))\b/, 'where'],
    [/^(who|whom|whose)\b/, 'who'],
    [/^how (many|much|often|long)\b/, 'how_many'],
  ],
  de: [
    [/^(wann|um wie ?viel uhr|an welchem tag|welches datum)\b/, 'when'],
    [/^(wo|wohin|woher|in welcher (stadt|gegend))\b/, 'where'],
    [/^(wer|wem|wen|wessen)\b/, 'who'],
    [/^wie (viele|viel|oft|lange)\b/, 'how_many'],
  ],
};

/** Words a question is phrased with that no answering line need repeat ("what did Dad *say* about …"). */
const ASKING: Record<Lang, ReadonlySet<string>> = {
  en: new Set('say says said tell tells told talk talked talking mention mentioned mean meant think thought know going go went get got happen happened ask asked remember exactly please again whose time date day'.split(' ')),
  de: new Set('sagen sagt sagte gesagt erzahlt erzahlte erzahlen meinte gemeint reden redet geredet sprechen spricht gesprochen passiert genau bitte nochmal wieder wissen weisst gefragt welche welcher welches welchen warum weshalb wieso wann wo wohin woher wer wem wen wessen was uhr datum tag'.split(' ')),
};

const GERMAN_START = /^(wann|wo|wohin|woher|wer|wem|wen|wessen|was|wie|welche\w*|warum|wieso|weshalb|hat|haben|ist|sind|gibt|kann|muss|soll)\b/;

/**
 * Reads a question; `lang` is the caller's when given, else German for a German question word or German
 * letters, else English.
 * @example
 * readQuestion('When do we leave the harbour?'); // { lang: 'en', kind: 'when', words: ['leave', 'harbour'], … }
 * readQuestion('Wann wird Oma neunzig?'); // { lang: 'de', kind: 'when', words: ['oma', 'neunzig'], … }
 */
export function readQuestion(text: string, lang?: Lang): Question {
  const lower = text.trim().toLowerCase();
  const asked: Lang = lang ?? (GERMAN_START.test(lower) || /[äöüß]/.test(lower) ? 'de' : 'en');
  const kind = KINDS[asked].find(([re]) => re.test(lower))?.[1] ?? 'what';
  // Stop words are listed as written ("für"); the words kept are folded ("fur") as lines are when compared.
  const tokens = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  const content = tokens.filter((w) => !NON_CONTENT[asked].has(w) && !NON_CONTENT.en.has(w) && (w.length > 1 || /\d/.test(w)));
  const words = content.map(fold).filter((w) => !ASKING[asked].has(w));
  return { text: text.trim(), lang: asked, kind, words: [...new Set(words)] };
}

/**
 * How many of the question's words a line holds: a word counts when the line has a word sharing its first
 * letters (all but the last two, at least four), so "tickets" meets "ticket" and "leaves" meets "leave"; a
 * short word with an ending ("swim" in "swimming"); a longer word also inside a compound ("kuchen" in
 * "Apfelkuchen"), and in German a short one at a compound's end ("rad" in "Hinterrad").
 * @example
 * wordsHeld(['leave', 'harbour'], 'We leave the harbour at nine.', 'en'); // 2
 */
export function wordsHeld(words: readonly string[], line: string, lang: Lang): number {
  const said = fold(line).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => said.some((s) => holds(s, w, lang))).length;
}

/** Whether a said word `s` is the asked word `w` (see wordsHeld). */
function holds(s: string, w: string, lang: Lang): boolean {
  if (s === w) return true;
  if (w.length <= 4) return (s.startsWith(w) && s.length <= w.length + 4) || (lang === 'de' && w.length >= 3 && s.length > w.length + 2 && s.endsWith(w));
  const stem = w.slice(0, Math.max(4, w.length - 2));
  return s.startsWith(stem) || (s.length > w.length + 2 && s.includes(stem));
}
