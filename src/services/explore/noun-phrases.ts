import { NON_CONTENT } from '../../tools/stopwords.js';
import { words } from '../../tools/normalise.js';
import { englishNounRuns } from './english-phrases.js';
import { germanNounRuns } from './german-phrases.js';
import { phrasesOfRun, type NounRun } from './noun-runs.js';
import { isGreeting } from './wordlists.js';
import type { Lang } from '../../messages/index.js';

/** A noun phrase found in a text, as written, with the language of the sentence it came from. */
export interface PhraseCandidate {
  words: string[];
  language: Lang;
}

const RUNS: Record<Lang, (text: string) => NounRun[]> = { en: englishNounRuns, de: germanNounRuns };

/** English or German by the stop words only one of them has; null on a tie (a title, a list of words). */
function stopwordLanguage(text: string): Lang | null {
  let en = 0;
  let de = 0;
  for (const w of words(text.toLowerCase())) {
    const inEn = NON_CONTENT.en.has(w);
    const inDe = NON_CONTENT.de.has(w);
    if (inEn && !inDe) en++;
    if (inDe && !inEn) de++;
  }
  return en === de ? null : en > de ? 'en' : 'de';
}

/** A run without the greeting it opens with ("Guten Morgen | Berlin"): a greeting is no subject. */
function ungreeted(run: NounRun): NounRun {
  return run.length >= 2 && isGreeting(run[0].word, run[1].word) ? run.slice(2) : run;
}

/**
 * The noun phrases of a text, each 1–4 words ending on a noun. The language is decided per sentence (an
 * episode's text may join English speech and German on-screen text), by its stop words; a sentence without
 * any (a title, a list of tags) takes the language of the whole text, and a text without any takes `language`.
 * Greetings ("Guten Morgen", "good evening") are left out.
 * @example
 * nounPhrases('Tomatoes need water every day.', 'en').map((c) => c.words.join(' ')); // ['Tomatoes', 'water']
 * nounPhrases('Der Kuchen kommt fuer vierzig Minuten in den Ofen.', 'en').map((c) => c.language); // ['de', …]
 */
export function nounPhrases(text: string, language: Lang): PhraseCandidate[] {
  const whole = stopwordLanguage(text) ?? language;
  // Consecutive sentences of one language are tagged together: one tagger call, and the tagger sees context.
  const parts: { language: Lang; text: string }[] = [];
  for (const sentence of text.split(/(?<=[.!?…])\s+|\s*\n\s*/u)) {
    if (!sentence.trim()) continue;
    const lang = stopwordLanguage(sentence) ?? whole;
    const last = parts[parts.length - 1];
    if (last?.language === lang) last.text += `\n${sentence}`;
    else parts.push({ language: lang, text: sentence });
  }
  return parts.flatMap((p) => RUNS[p.language](p.text).map(ungreeted).flatMap(phrasesOfRun).map((w) => ({ words: w, language: p.language })));
}
