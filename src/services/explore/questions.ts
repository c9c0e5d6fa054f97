import type { QuestionKind } from '../../analysis/phrases.js';
import type { EpisodeTextRow } from '../../store/explore.js';
import { words } from '../../tools/normalise.js';
import { keyPhrases, type KeyPhrase, type PhraseCorpus } from './keyphrases.js';

/** Whether a text names a phrase (its lower-cased key) as whole words. */
function mentions(text: string, phrase: string): boolean {
  return ` ${words(text.toLowerCase()).join(' ')} `.includes(` ${phrase} `);
}

/** What a question is about: a phrase, how it is asked about, and the episodes it was found in. */
export interface Asked {
  phrase: KeyPhrase;
  kind: QuestionKind;
  docs: number[];
}

/** The episodes a group's question draws from, and how many questions each source had so far. */
export interface QuestionContext {
  rows: EpisodeTextRow[];
  corpus: PhraseCorpus;
  group: number[];
  titles: string[];
  /** Phrases already suggested (the topic among them): the question names none made only of their words. */
  exclude: string[];
  asked: { said: number; shown: number };
}

/** The episodes of a phrase that name it in what is said or in what is shown. */
function foundIn(rows: EpisodeTextRow[], p: KeyPhrase, source: 'spoken' | 'shown'): number[] {
  return p.docs.filter((i) => mentions(rows[i][source], p.phrase));
}

/** A phrase found in one source: the topic when it is there, else the group's best phrase that is. */
function phraseIn(ctx: QuestionContext, topic: KeyPhrase, source: 'spoken' | 'shown'): { phrase: KeyPhrase; docs: number[] } | null {
  const own = foundIn(ctx.rows, topic, source);
  if (own.length) return { phrase: topic, docs: own };
  const [other] = keyPhrases(ctx.corpus, ctx.group, 1, ctx.exclude, ctx.titles, (c) => foundIn(ctx.rows, c, source).length > 0);
  return other ? { phrase: other, docs: foundIn(ctx.rows, other, source) } : null;
}

/**
 * How to ask about what episodes show: with a time in videos, as a photo ("which photo") in photos, and
 * without either when both hold it (or only tags do).
 */
function shownKind(rows: EpisodeTextRow[], docs: number[]): QuestionKind {
  const items = new Map(docs.map((i) => [rows[i].media_id, rows[i].media_type]));
  const photos = [...items.values()].filter((t) => t === 'image').length;
  if (photos === 0) return 'shown';
  if (photos < items.size) return 'anywhere';
  return photos === 1 ? 'photo' : 'photos';
}

/**
 * The question of a group of episodes after its `topic`: about what is said as well as what is shown. A
 * group that has both is asked about the one its topic did not come from (a caption's topic, a question
 * about the speech under it); a topic found in both takes the source asked about less so far (`ctx.asked`,
 * which it counts in; speech first). A topic found in neither (tags) is asked about where it comes up.
 * @example
 * questionOf(ctx, topic); // { phrase: { surface: 'seedlings', … }, kind: 'said', docs: [4] } under the caption "Tomato Harvest"
 */
export function questionOf(ctx: QuestionContext, topic: KeyPhrase): Asked {
  const said = phraseIn(ctx, topic, 'spoken');
  const shown = phraseIn(ctx, topic, 'shown');
  if (!said && !shown) return { phrase: topic, kind: shownKind(ctx.rows, topic.docs), docs: topic.docs };
  let askSaid = !shown;
  if (said && shown) {
    const fromSaid = said.phrase === topic;
    const fromShown = shown.phrase === topic;
    askSaid = fromSaid === fromShown ? ctx.asked.said <= ctx.asked.shown : fromShown;
  }
  if (askSaid && said) {
    ctx.asked.said++;
    return { ...said, kind: 'said' };
  }
  ctx.asked.shown++;
  return { ...shown!, kind: shownKind(ctx.rows, shown!.docs) };
}
