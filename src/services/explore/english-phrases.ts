import type { NounRun } from './noun-runs.js';
import { tagEnglish, type TaggedToken } from './tagger.js';
import { isEdgeWord, isVerbForm } from './wordlists.js';

const NOUN = new Set(['NOUN', 'PROPN']);
/** Pronouns that start a clause of their own ("the cake you bake", "the plants that grow"), not an object. */
const SUBJECTS = new Set(['i', 'you', 'he', 'she', 'we', 'they', 'that', 'which', 'who', 'what', 'whose']);
/** Words that open the object of a verb ("blows out the candles", "wins the cup"); not "every", "this" (time: "every morning"). */
const OBJECTS = new Set(['the', 'a', 'an', 'my', 'your', 'his', 'her', 'our', 'their', 'its', 'them', 'him', 'me', 'us', 'it']);
/** Particles of phrasal verbs: "Blow out the candles". */
const PARTICLES = new Set(['out', 'up', 'off', 'down', 'away', 'back']);
/** Words after which an imperative follows mid-sentence: "and then water the plants". */
const IMPERATIVE_CUES = new Set(['and', 'then', 'now', 'please', 'just', 'first', 'next', 'so', 'also', 'always', 'never']);
const WORD = /^\p{L}[\p{L}\p{M}]*$/u;

const lower = (t: TaggedToken | undefined): string => t?.text.toLowerCase() ?? '';

/** Whether the tokens from `i` open an object: a determiner or pronoun, after a phrasal-verb particle or not. */
function objectAt(tokens: TaggedToken[], i: number, opens: (t: TaggedToken | undefined) => boolean): boolean {
  return opens(tokens[i]) || (PARTICLES.has(lower(tokens[i])) && opens(tokens[i + 1]));
}

/**
 * Whether the noun-tagged token at `i` is really a verb. The tagger reads two kinds of verb as nouns:
 * imperatives that open a clause ("Mix the flour", "Water the tomato plants"), and a verb right after its
 * subject ("Anna blows out the candles", "the sun sets slowly"). Both take an object, an -ly adverb or an
 * adjective after them.
 */
function isVerbInDisguise(tokens: TaggedToken[], i: number): boolean {
  const prev = tokens[i - 1];
  // Mid-sentence a noun before "every" or "this" is a noun ("plants every morning"); an imperative opens its clause.
  if (tokens[i].sentenceStart || IMPERATIVE_CUES.has(lower(prev))) {
    return objectAt(tokens, i + 1, (n) => !!n && (n.pos === 'DET' || n.pos === 'PRON') && !SUBJECTS.has(lower(n)));
  }
  if (!prev || !NOUN.has(prev.pos)) return false;
  if (objectAt(tokens, i + 1, (n) => OBJECTS.has(lower(n)))) return true;
  // "-s" after a noun and before an adverb or an adjective is a verb: "the sun sets slowly", "the team practises free kicks".
  const next = tokens[i + 1];
  const attributive = next?.pos === 'ADJ' && NOUN.has(tokens[i + 2]?.pos ?? '');
  return /s$/.test(lower(tokens[i])) && !!next && ((next.pos === 'ADV' && /ly$/.test(lower(next))) || attributive);
}

function role(tokens: TaggedToken[], i: number): 'mod' | 'noun' | null {
  const t = tokens[i];
  if (!WORD.test(t.text) || isEdgeWord(t.text, 'en') || isVerbForm(t.text, 'en')) return null;
  if (NOUN.has(t.pos)) return isVerbInDisguise(tokens, i) ? null : 'noun';
  return t.pos === 'ADJ' ? 'mod' : null;
}

/**
 * The noun runs of English text: maximal stretches of adjectives and nouns as a part-of-speech tagger reads
 * them in context, cut at anything else (verbs, determiners, numbers, punctuation) and at nouns that are
 * really verbs ("Water the plants"). "Tomatoes need water every" gives "Tomatoes" and "water".
 * @example
 * englishNounRuns('Keep your eyes on the penalty shot.').map((r) => r.map((w) => w.word).join(' ')); // ['eyes', 'penalty shot']
 */
export function englishNounRuns(text: string): NounRun[] {
  const tokens = tagEnglish(text);
  const runs: NounRun[] = [];
  let run: NounRun = [];
  tokens.forEach((t, i) => {
    const r = role(tokens, i);
    // A noun phrase's modifiers come before its head: an adjective after a noun starts a new phrase; so
    // does a sentence start.
    if (r === null || t.sentenceStart || (r === 'mod' && run.length && run[run.length - 1].role === 'noun')) {
      if (run.length) runs.push(run);
      run = [];
    }
    if (r !== null) run.push({ word: t.text, role: r });
  });
  if (run.length) runs.push(run);
  return runs;
}
