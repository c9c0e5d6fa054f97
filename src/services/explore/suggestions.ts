import { questionAbout } from '../../analysis/phrases.js';
import { contentWords, cosine, tfidf } from '../../analysis/text-stats.js';
import type { EpisodeTextRow } from '../../store/explore.js';
import { keyPhrases, phraseCorpus, titleCase } from './keyphrases.js';
import { averageLinkage } from './linkage.js';
import { ocrSlips } from './ocr-slips.js';
import { questionOf } from './questions.js';
import type { Lang } from '../../messages/index.js';

/** One streamed element of POST /collection_suggestions (SPEC 2.9). */
export interface SuggestionElement {
  completion: {
    type: 'topic' | 'question';
    text: string;
    /** Media items the suggestion is drawn from. */
    media_ids: string[];
    /** Where in them, at most five moments. */
    moments: { media_id: string; episode_id: number; start_time: number }[];
  };
}

/**
 * Input of the suggestions job: a collection's episode texts (read by the caller, one copy of each group of
 * copies: see onePerCopy) and the answer language.
 */
export interface SuggestionsJobInput {
  rows: EpisodeTextRow[];
  language: Lang;
  maxTopics: number;
}

/**
 * Groups episodes whose words overlap (average link over TF-IDF cosine; neighbouring episodes of one item
 * are a little closer, as they tend to go on about the same thing).
 */
function groupEpisodes(rows: EpisodeTextRow[]): number[][] {
  const vecs = tfidf(rows.map((r) => contentWords(r.text)));
  const near = (i: number, j: number) => (rows[i].media_id === rows[j].media_id && Math.abs(rows[i].idx - rows[j].idx) <= 1 ? 0.1 : 0);
  return averageLinkage(rows.length, (i, j) => cosine(vecs[i], vecs[j]) + near(i, j), 0.15);
}

/** The titles of a group's items, which favour the phrases that name them. */
function titlesOf(rows: EpisodeTextRow[], group: number[]): string[] {
  return [...new Set(group.map((i) => rows[i].title ?? ''))];
}

/** A streamed element about the given episodes. */
function element(type: 'topic' | 'question', text: string, rows: EpisodeTextRow[], docs: number[]): SuggestionElement {
  const members = docs.map((i) => rows[i]);
  const media_ids = [...new Set(members.map((m) => m.media_id))];
  const moments = members.slice(0, 5).map((m) => ({ media_id: m.media_id, episode_id: m.idx, start_time: m.start }));
  return { completion: { type, text, media_ids, moments } };
}

/**
 * Topics and questions drawn from a collection's episodes: episodes are grouped by shared words, each
 * group's most distinctive noun phrase (one that readsWhole; words of its items' titles count more) becomes a
 * topic, then a question about what is said or shown in the group (see questionOf), in the asked language,
 * which is also the fallback language of text that shows none. OCR slips (see ocrSlips) are never a topic.
 * Yields one element at a time so the HTTP layer can stream it.
 * @example
 * for (const s of suggestFromEpisodes(rows, 'en', 8)) console.log(s.completion.text); // 'Penalty shot training', …
 */
export function* suggestFromEpisodes(rows: EpisodeTextRow[], language: Lang, maxTopics = 8): Generator<SuggestionElement> {
  const usable = rows.filter((r) => contentWords(r.text).length > 0);
  if (usable.length === 0) return;
  const slips = ocrSlips(usable.map((r) => ({ shown: r.shown, other: `${r.spoken} ${r.tags}`, item: r.media_id })));
  const corpus = phraseCorpus(usable.map((r) => r.text), language, slips);
  const seen = new Set<string>();
  const asked = { said: 0, shown: 0 };
  let topic = 0;
  // Largest groups first; among equals, the one whose phrase stands out most (repeated, in its title)
  // before one whose phrase was said once.
  const groups = groupEpisodes(usable)
    .map((group) => ({ group, titles: titlesOf(usable, group) }))
    .map((g) => ({ ...g, lead: keyPhrases(corpus, g.group, 1, [], g.titles)[0]?.score ?? 0 }))
    .sort((a, b) => b.group.length - a.group.length || b.lead - a.lead);
  for (const { group, titles } of groups) {
    if (topic >= maxTopics) break;
    const [best] = keyPhrases(corpus, group, 3, [...seen], titles);
    if (!best || seen.has(best.phrase)) continue;
    seen.add(best.phrase);
    yield element('topic', titleCase(best.surface), usable, best.docs);
    const q = questionOf({ rows: usable, corpus, group, titles, exclude: [...seen], asked }, best);
    seen.add(q.phrase.phrase);
    yield element('question', questionAbout(q.phrase.surface, language, q.kind), usable, q.docs);
    topic++;
  }
}
