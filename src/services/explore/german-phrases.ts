import type { NounRun } from './noun-runs.js';
import { fold, isEdgeWord, isGermanOpener, isVerbForm } from './wordlists.js';

/** Endings of inflected German adjectives: "frische", "leckeren", "großer", "kaltes", "warmem". */
const ADJECTIVE_ENDING = /(e|en|er|es|em)$/u;
/** Pronouns that make a capitalised sentence opener a verb ("Backen Sie…", "Gibt es…") and stop an adjective run. */
const PERSONAL = new Set('ich du er sie es wir ihr man mich dich ihn uns euch mir dir ihm ihnen sich'.split(' '));
/** Articles and possessives: after a capitalised sentence opener they make it a verb ("Behaltet den Ball", "Gießt die Pflanzen"). */
const ARTICLES = new Set(
  'der die das den dem des ein eine einen einem einer eines mein meine meinen dein deine deinen sein seine seinen ihre ihren unser unsere unseren euer eure euren'.split(' '),
);
/** Subordinators put the verb last: a lower-case -en word after them is a verb ("weil wir backen"). */
const SUBORDINATORS = new Set('dass weil wenn ob obwohl als damit sodass bevor nachdem waehrend'.split(' '));
const TOKEN = /[\p{L}\p{M}]+(?:[-'’][\p{L}\p{M}]+)*|\p{N}+|\n|[^\s\p{L}\p{M}\p{N}]+/gu;
const WORD = /^\p{L}/u;
/** A sentence starts after these: its end, a colon, a line break, and the brackets of the JSON tag list in stored episode texts. */
const SENTENCE_END = /[.!?:…\n[\]{}]/u;

interface Word {
  text: string;
  /** First word of a sentence, where every word is capitalised. */
  start: boolean;
}

/** Clauses of text (cut at any punctuation), each a list of words, marking where sentences begin. */
function clauses(text: string): Word[][] {
  const out: Word[][] = [];
  let clause: Word[] = [];
  let start = true;
  for (const token of text.match(TOKEN) ?? []) {
    if (WORD.test(token)) {
      clause.push({ text: token, start });
      start = false;
      continue;
    }
    if (clause.length) out.push(clause);
    clause = [];
    if (SENTENCE_END.test(token)) start = true;
  }
  if (clause.length) out.push(clause);
  return out;
}

const capitalised = (w: string): boolean => /^\p{Lu}/u.test(w);

/**
 * Whether an adjective may follow word `i`: an article, preposition, number or quantifier; a pronoun only
 * after its verb ("gibt es leichten Regen", not "wir backen"); never a subordinator (the verb comes last).
 */
function opensAdjectives(words: Word[], i: number): boolean {
  const w = words[i]?.text;
  if (w === undefined || !isEdgeWord(w, 'de') || SUBORDINATORS.has(fold(w))) return false;
  if (!PERSONAL.has(fold(w))) return true;
  const before = words[i - 1]?.text;
  return before !== undefined && (!isEdgeWord(before, 'de') || isVerbForm(before, 'de'));
}

/**
 * The role of word `i` of a clause: a noun (capitalised, not a function or verb form, and at the start of a
 * sentence only when it reads as one), an adjective (lower case with an adjective ending after an article
 * or preposition), or null.
 */
function role(words: Word[], i: number, lowered: Set<string>, afterOpener: boolean): 'mod' | 'noun' | null {
  const { text, start } = words[i];
  if (isEdgeWord(text, 'de') || isVerbForm(text, 'de')) return null;
  const next = words[i + 1]?.text;
  if (!capitalised(text)) return ADJECTIVE_ENDING.test(text) && text.length > 3 && afterOpener ? 'mod' : null;
  if (!start) return 'noun';
  // Every sentence opens capitalised: an adverb, a verb before its subject or object ("Backen Sie",
  // "Behaltet den Ball"), or a word written lower case elsewhere in the same text is no noun.
  const verbFirst = next !== undefined && (PERSONAL.has(fold(next)) || ARTICLES.has(fold(next)));
  if (isGermanOpener(text) || verbFirst || lowered.has(fold(text))) return null;
  if (ADJECTIVE_ENDING.test(text) && next !== undefined && capitalised(next) && !isEdgeWord(next, 'de')) return 'mod';
  return 'noun';
}

/**
 * The noun runs of German text, found by spelling (German capitalises nouns; no tagger needed): optional
 * lower-case adjectives after an article or preposition, then capitalised words that are no function word,
 * number word or common verb form. After an article or preposition a run holds one noun ("jeden Morgen |
 * Wasser"); elsewhere nouns may chain, as names and on-screen titles do ("Apfelkuchen Rezept").
 * @example
 * germanNounRuns('Kuchen kommt fuer vierzig Minuten in den heißen Ofen.').map((r) => r.map((w) => w.word).join(' ')); // ['Kuchen', 'heißen Ofen']
 */
export function germanNounRuns(text: string): NounRun[] {
  const all = clauses(text);
  const lowered = new Set(all.flat().filter((w) => !w.start && !capitalised(w.text)).map((w) => fold(w.text)));
  const runs: NounRun[] = [];
  for (const words of all) {
    let run: NounRun = [];
    let governed = false;
    const close = () => {
      if (run.length) runs.push(run);
      run = [];
    };
    words.forEach((w, i) => {
      const prevInRun = run[run.length - 1];
      const afterOpener = prevInRun ? prevInRun.role === 'mod' : opensAdjectives(words, i - 1);
      const r = role(words, i, lowered, afterOpener);
      if (r === null) {
        close();
        return;
      }
      if (prevInRun?.role === 'noun' && (r === 'mod' || governed)) close();
      if (run.length === 0) governed = opensAdjectives(words, i - 1);
      run.push({ word: w.text, role: r });
    });
    close();
  }
  return runs;
}
