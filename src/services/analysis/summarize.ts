import { contentWords, cosine, dot, sentences, tfidf } from './text.js';

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
      const key = s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
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
  const vecs = tfidf(items.map(contentWords));
  return vecs.map((v, i) => vecs.reduce((sum, w, j) => (i === j ? sum : sum + cosine(v, w)), 0) / Math.max(1, vecs.length - 1));
}
