import { dot } from '../tools/vectors.js';
import { cutText } from './limits.js';
import { episodeSummary } from './phrases.js';
import { contentWords, cosine, sentences, sumSparse, tfidf, type SparseVector } from './text-stats.js';
import type { Lang } from '../messages/index.js';

/** Ranks sentences by how central they are; dense vectors when the text embedder is there, TF-IDF otherwise. */
export type SentenceEmbedder = ((texts: string[]) => Promise<Float32Array[]>) | null;

/**
 * Picks the `k` most central sentences of `texts` (each may hold several sentences) and returns them in
 * their original order. `boost` words (title, metadata) raise the sentences that contain them.
 * @example
 * await extractiveSummary(['The team trains penalties.', 'Weather is fine.'], 1, null, ['penalty']);
 */
export async function extractiveSummary(texts: string[], k: number, embed: SentenceEmbedder, boost: string[] = []): Promise<string[]> {
  const all: string[] = [];
  const seen = new Set<string>();
  for (const t of texts) {
    for (const s of sentences(t)) {
      const key = sentenceKey(s);
      if (key && !seen.has(key)) {
        seen.add(key);
        all.push(s);
      }
    }
  }
  if (all.length <= k) return all;
  const scores = await centrality(all, embed);
  const boostWords = new Set(boost.flatMap(contentWords));
  const ranked = all
    .map((s, i) => {
      const words = contentWords(s);
      const hits = words.filter((w) => boostWords.has(w)).length;
      // Very short fragments carry little; very long ones read badly in a summary.
      const lengthFit = words.length < 3 ? 0.5 : words.length > 40 ? 0.8 : 1;
      return { i, score: (scores[i] + 0.15 * Math.min(2, hits)) * lengthFit };
    })
    .sort((a, b) => b.score - a.score);
  const chosen: number[] = [];
  for (const r of ranked) {
    if (chosen.length >= k) break;
    chosen.push(r.i);
  }
  return chosen.sort((a, b) => a - b).map((i) => all[i]);
}

async function centrality(items: string[], embed: SentenceEmbedder): Promise<number[]> {
  if (embed) {
    const vecs = await embed(items);
    const dims = vecs[0]?.length ?? 0;
    const centroid = new Float32Array(dims);
    for (const v of vecs) for (let d = 0; d < dims; d++) centroid[d] += v[d] / vecs.length;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += centroid[d] * centroid[d];
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) centroid[d] /= norm;
    return vecs.map((v) => dot(v, centroid));
  }
  const space = await sentenceSpace(items, null);
  const all = items.map((_, i) => i);
  const sum = space.sum(all);
  return all.map((i) => space.central(i, sum, all.length));
}

/** A sum of unit sentence vectors (dense or sparse, as the space keeps them). */
type VectorSum = Float32Array | SparseVector;

/**
 * Sentences as unit vectors (dense from the text embedder, else TF-IDF): how alike two are, and how alike one
 * is on average to the others of a group. The mean is taken through the group's summed vector, one dot
 * product a sentence: comparing every sentence with every other cost n² (16,000 subtitle cues took 76 s,
 * issue 43); this is the same number in n.
 */
interface SentenceSpace {
  alike(i: number, j: number): number;
  sum(ids: number[]): VectorSum;
  /** The mean similarity of sentence `i` to the other `size - 1` members of the group `sum` adds up. */
  central(i: number, sum: VectorSum, size: number): number;
}

async function sentenceSpace(all: string[], embed: SentenceEmbedder): Promise<SentenceSpace> {
  if (embed) {
    const vecs = await embed(all);
    return {
      alike: (i, j) => dot(vecs[i], vecs[j]),
      sum: (ids) => {
        const out = new Float32Array(vecs[0]?.length ?? 0);
        for (const i of ids) for (let d = 0; d < out.length; d++) out[d] += vecs[i][d];
        return out;
      },
      central: (i, sum, size) => (size > 1 ? (dot(vecs[i], sum as Float32Array) - dot(vecs[i], vecs[i])) / (size - 1) : 1),
    };
  }
  const vecs = tfidf(all.map(contentWords));
  return {
    alike: (i, j) => cosine(vecs[i], vecs[j]),
    sum: (ids) => sumSparse(ids.map((i) => vecs[i])),
    central: (i, sum, size) => (size > 1 ? (cosine(vecs[i], sum as SparseVector) - cosine(vecs[i], vecs[i])) / (size - 1) : 1),
  };
}

/** Bounds of a video summary: at most this many sentences, each and all of them at most so long. */
export const VIDEO_SUMMARY_LIMITS = { sentences: 6, sentenceChars: 180, totalChars: 700 } as const;

/** Normalised text of a sentence, for telling repeats apart. */
function sentenceKey(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The parts a long video's summary speaks for: at most `n` of them, the most distinct ones (maximal
 * marginal relevance over the parts' words: much said, unlike what was already picked), in time order.
 */
function distinctParts(parts: string[][], n: number): number[] {
  const withText = parts.map((p, i) => ({ i, words: p.flatMap(contentWords) })).filter((p) => p.words.length > 0);
  if (withText.length <= n) return withText.map((p) => p.i);
  const vecs = tfidf(withText.map((p) => p.words));
  const weight = withText.map((p) => Math.log(1 + p.words.length));
  const top = Math.max(...weight);
  const chosen: number[] = [];
  while (chosen.length < n) {
    let best = -1;
    let bestScore = -Infinity;
    for (let k = 0; k < withText.length; k++) {
      if (chosen.includes(k)) continue;
      const redundant = chosen.length ? Math.max(...chosen.map((c) => cosine(vecs[k], vecs[c]))) : 0;
      const score = 0.4 * (weight[k] / top) - 0.6 * redundant;
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    chosen.push(best);
  }
  return chosen.map((k) => withText[k].i).sort((a, b) => a - b);
}

/**
 * A video summary that covers the video: one sentence for each part (an episode), in order. A short video
 * (up to {@link VIDEO_SUMMARY_LIMITS}.sentences parts with text) gets one for every part; a longer one for
 * its most distinct parts. Each sentence is the one most central to its part and least like those already
 * chosen, so three topics give three different sentences. Sentences are shortened so that every chosen part
 * fits in the total length. In the language of the content it is taken from (it adds no words of its own).
 * @example
 * await videoSummary([['Welcome to the cooking show. We bake bread.'], ['Iceland has many volcanoes.']], null);
 * // 'Welcome to the cooking show. Iceland has many volcanoes.'
 */
export async function videoSummary(parts: string[][], embed: SentenceEmbedder, boost: string[] = []): Promise<string> {
  // A sentence repeated in a later part (a refrain, a slide shown twice) is a candidate once.
  const seen = new Set<string>();
  const groups = distinctParts(parts, VIDEO_SUMMARY_LIMITS.sentences).map((p) =>
    parts[p].flatMap(sentences).filter((s) => {
      const key = sentenceKey(s);
      if (!key || seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  ).filter((g) => g.length > 0);
  const all = groups.flat();
  if (all.length === 0) return '';
  const space = await sentenceSpace(all, embed);
  const boostWords = new Set(boost.flatMap(contentWords));
  const chosen: number[] = [];
  let offset = 0;
  for (const g of groups) {
    const ids = g.map((_, k) => offset + k);
    offset += g.length;
    const sum = space.sum(ids);
    let best = -1;
    let bestScore = -Infinity;
    for (const i of ids) {
      const central = space.central(i, sum, ids.length);
      const redundant = chosen.length ? Math.max(...chosen.map((j) => space.alike(i, j))) : 0;
      const words = contentWords(all[i]);
      const hits = words.filter((w) => boostWords.has(w)).length;
      const lengthFit = words.length < 3 ? 0.5 : words.length > 40 ? 0.8 : 1;
      const score = (central + 0.15 * Math.min(2, hits) - 0.8 * redundant) * lengthFit;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best >= 0) chosen.push(best);
  }
  // Every chosen part keeps its sentence: each is shortened to its share of the total length.
  const share = Math.floor((VIDEO_SUMMARY_LIMITS.totalChars + 1) / chosen.length) - 1;
  const max = Math.min(VIDEO_SUMMARY_LIMITS.sentenceChars, share);
  return chosen.map((i) => cutText(all[i], max)).join(' ');
}

/** What one episode holds for {@link retoldSummaries}: its lines in the other language, its on-screen text and tags. */
export interface RetoldEpisode {
  lines: string[];
  screen: string[];
  tags: string[];
}

/**
 * An item's summaries told again from another subtitle track's lines, as the analysis tells them from its
 * transcript: each episode's (the two most central lines said there, else its on-screen text or tags) and the
 * whole item's (one sentence per part). Ranked lexically: no text model is loaded to read an analysis. In the
 * track's language; `language` words the quotes around on-screen text.
 * @example
 * await retoldSummaries([{ lines: ['Guten Morgen aus Berlin.'], screen: [], tags: [] }], 'de');
 * // { episodes: ['Guten Morgen aus Berlin.'], summary: 'Guten Morgen aus Berlin.' }
 */
export async function retoldSummaries(episodes: RetoldEpisode[], language: Lang, boost: string[] = []): Promise<{ episodes: string[]; summary: string }> {
  const told: string[] = [];
  for (const e of episodes) {
    const spoken = await extractiveSummary(e.lines, 2, null, boost);
    told.push(episodeSummary(spoken, e.screen.slice(0, 3), e.tags.slice(0, 4), language));
  }
  const parts = episodes.map((e) => (e.lines.length ? e.lines : e.screen.map((line) => (/[.!?…]$/.test(line) ? line : `${line}.`))));
  return { episodes: told, summary: await videoSummary(parts, null, boost) };
}
