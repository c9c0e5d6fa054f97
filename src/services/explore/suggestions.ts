import { questionAbout } from '../../analysis/phrases.js';
import { contentWords, cosine, tfidf } from '../../analysis/text-stats.js';
import type { EpisodeTextRow } from '../../store/explore.js';
import { keyPhrases, phraseCorpus, titleCase } from './keyphrases.js';
import { averageLinkage } from './linkage.js';

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

/** Input of the suggestions job: a collection's episode texts (read by the caller) and the answer language. */
export interface SuggestionsJobInput {
  rows: EpisodeTextRow[];
  language: 'en' | 'de';
  maxTopics: number;
}

/** Groups episodes whose words overlap (average link over TF-IDF cosine), largest first. */
function groupEpisodes(rows: EpisodeTextRow[]): number[][] {
  const vecs = tfidf(rows.map((r) => contentWords(r.text)));
  return averageLinkage(rows.length, (i, j) => cosine(vecs[i], vecs[j]), 0.15).sort((a, b) => b.length - a.length);
}

/**
 * Topics and questions drawn from a collection's episodes: episodes are grouped by shared words, each
 * group's most distinctive noun phrase (one that readsWhole) becomes a topic, then a question about it, in
 * the asked language, which is also the fallback language of text that shows none.
 * Yields one element at a time so the HTTP layer can stream it.
 * @example
 * for (const s of suggestFromEpisodes(rows, 'en', 8)) console.log(s.completion.text); // 'Penalty shot training', …
 */
export function* suggestFromEpisodes(rows: EpisodeTextRow[], language: 'en' | 'de', maxTopics = 8): Generator<SuggestionElement> {
  const usable = rows.filter((r) => contentWords(r.text).length > 0);
  if (usable.length === 0) return;
  const corpus = phraseCorpus(usable.map((r) => r.text), language);
  const seen = new Set<string>();
  let topic = 0;
  for (const group of groupEpisodes(usable)) {
    if (topic >= maxTopics) break;
    const [best] = keyPhrases(corpus, group, 3, [...seen]);
    if (!best || seen.has(best.phrase)) continue;
    seen.add(best.phrase);
    const members = best.docs.map((i) => usable[i]);
    const media_ids = [...new Set(members.map((m) => m.media_id))];
    const moments = members.slice(0, 5).map((m) => ({ media_id: m.media_id, episode_id: m.idx, start_time: m.start }));
    yield { completion: { type: 'topic', text: titleCase(best.surface), media_ids, moments } };
    yield { completion: { type: 'question', text: questionAbout(best.surface, language, topic), media_ids, moments } };
    topic++;
  }
}
