import { contentWords, cosine, tfidf, type SparseVector } from '../../analysis/text-stats.js';
import { dot } from '../../tools/vectors.js';
import { stripPresentation } from '../../analysis/phrases.js';
import type { SearchResult } from '../search/index.js';
import { clusterLine, copyShadows, itemName } from './cluster-line.js';
import { copyKey, type CopyGroups } from './copies.js';
import { keyPhrases, phraseCorpus, readsWholeIn, titleCase, type PhraseCorpus } from './keyphrases.js';
import { averageLinkage } from './linkage.js';
import { ocrSlips } from './ocr-slips.js';
import type { Lang } from '../../messages/index.js';

/** One streamed element of POST /search_clusters (SPEC 2.8). */
export interface ClusterElement {
  answer: string;
  teaser_id: number;
  cluster_results: SearchResult[];
  additional_info: string;
  related_queries: string[];
}

/** Embeds texts as unit vectors for grouping; null groups by shared words and media instead. */
export type GroupEmbedder = ((texts: string[]) => Promise<Float32Array[]>) | null;

/** The text a result stands for: what was said, shown and summarised in its episode. */
export function resultText(r: SearchResult): string {
  return [r.content, ...r.audio.map((a) => a.text), ...r.computer_vision.map((v) => v.summary)].map(stripPresentation).join('\n');
}

/**
 * Groups search hits into clusters of moments about the same thing: average-link agglomeration over
 * embedding similarity (when the hits' text vectors are given) or TF-IDF similarity plus a bonus for
 * neighbouring episodes of the same media. Clusters come back ordered by their best hit.
 * @example
 * const groups = groupResults(results, null); // [[r0, r3], [r1], …]
 */
export function groupResults(results: SearchResult[], vecs: Float32Array[] | null): SearchResult[][] {
  if (results.length === 0) return [];
  const texts = results.map(resultText);
  let sim: (i: number, j: number) => number;
  let threshold: number;
  if (vecs) {
    sim = (i, j) => dot(vecs[i], vecs[j]);
    threshold = 0.82;
  } else {
    const vecs: SparseVector[] = tfidf(texts.map(contentWords));
    sim = (i, j) => cosine(vecs[i], vecs[j]);
    threshold = 0.2;
  }
  const near = (i: number, j: number) =>
    results[i].media_id === results[j].media_id && Math.abs(results[i].episode_id - results[j].episode_id) <= 1 ? 0.1 : 0;
  const groups = averageLinkage(results.length, (i, j) => sim(i, j) + near(i, j), threshold);
  return groups
    .map((g) => g.map((i) => results[i]))
    .sort((a, b) => b[0].score - a[0].score);
}

/** Input of the clusters job: the hits, their text vectors (unit length) when an embedder exists, the query. */
export interface ClusterJobInput {
  results: SearchResult[];
  vectors: Float32Array[] | null;
  query: string;
  language: Lang;
  maxClusters: number;
  /** The hits' items that have copies, with the copy each group keeps: a video and its copies are one item. */
  copies?: CopyGroups;
}

/**
 * The streamed elements of POST /search_clusters for a search's hits: pure CPU work (about a second for
 * 40 hits), so it runs as a job off the request loop.
 * @example
 * clusterElements({ results, vectors: null, query: 'penalty', language: 'en', maxClusters: 8 })[0].answer;
 */
export function clusterElements(input: ClusterJobInput): ClusterElement[] {
  const { results } = input;
  const copies = input.copies ?? {};
  const groups = groupResults(results, input.vectors).slice(0, input.maxClusters);
  // Phrases are found once for all hits: every cluster is described against the same corpus, which leaves
  // out the OCR slips among the hits' words, and the words of a copy's hit, which only repeat its original's.
  const shadows = new Set(groups.flatMap((g) => [...copyShadows(g, copies)]));
  const slips = ocrSlips(results.map((r) => ({ shown: r.computer_vision.map((v) => v.summary).join('\n'), other: r.audio.map((a) => a.text).join('\n'), item: copyKey(copies, r.media_id) })));
  const corpus = phraseCorpus(results.map((r) => (shadows.has(r) ? '' : resultText(r))), input.language, slips);
  return groups.map((group, i) => describeCluster(group, i, corpus, group.map((r) => results.indexOf(r)), input.query, input.language, copies));
}

/**
 * Turns a group of hits into the streamed element: a label and the best line as the answer, which
 * media and moments it covers (a video and its `copies` counted once), and related queries from its distinctive noun phrases (each readsWhole).
 * `allTexts` are the texts of all hits (or their phraseCorpus), `memberIndexes` the group's among them,
 * best hit first.
 * @example
 * describeCluster(group, 0, allTexts, groupIndexes, 'penalty', 'en').answer; // 'Penalty shot training: The goalkeeper dives …'
 */
export function describeCluster(
  group: SearchResult[],
  teaserId: number,
  allTexts: string[] | PhraseCorpus,
  memberIndexes: number[],
  query: string,
  language: Lang,
  copies: CopyGroups = {},
): ClusterElement {
  const corpus = Array.isArray(allTexts) ? phraseCorpus(allTexts, language) : allTexts;
  const phrases = keyPhrases(corpus, memberIndexes, 6, []);
  const label = phrases[0];
  const best = group[0];
  // A moment without words (a photo with no text) is named by its item; no sentence of ours stands in.
  const content = stripPresentation(best.content) || itemName(best, language);
  const line = content.length > 200 ? `${content.slice(0, 197)}…` : content;
  // A label that repeats words of the line adds nothing ("Morgen gibt es viel: Morgen gibt es viel Schnee").
  const lineWords = new Set(contentWords(line));
  const answer = label && !contentWords(label.surface).some((w) => lineWords.has(w)) ? `${titleCase(label.surface)}: ${line}` : line;
  const additional_info = clusterLine(group, copies, language);
  const queryWords = new Set(contentWords(query));
  const related = keyPhrases(corpus, memberIndexes, 8, [query])
    .map((p) => p.surface)
    .filter((p) => !p.toLowerCase().split(' ').every((w) => queryWords.has(w)))
    .slice(0, 5);
  if (related.length < 2) {
    // Too few distinctive phrases: the best hit's own nouns, in the order said.
    for (const o of corpus.docs[memberIndexes[0]] ?? []) {
      if (related.length >= 2) break;
      const known = related.some((r) => r.toLowerCase() === o.key);
      if (!known && !o.key.includes(' ') && !queryWords.has(o.key) && readsWholeIn(corpus, o.surface, o.language)) related.push(o.surface);
    }
  }
  return { answer, teaser_id: teaserId, cluster_results: group, additional_info, related_queries: related.slice(0, 5) };
}
