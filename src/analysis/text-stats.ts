/**
 * Light text tools for summaries, episode cuts and labels: tokens, sentences, TF-IDF, a language guess.
 * Stop words live in search/stopwords.ts, word splitting in search/text.ts, dense vector maths in
 * search/vectors.ts: one copy of each.
 */
import { NON_CONTENT } from '../tools/stopwords.js';
import { words } from '../tools/normalise.js';
import type { Lang } from '../messages/index.js';

const STOP_EN = NON_CONTENT.en;
const STOP_DE = NON_CONTENT.de;

/**
 * Lower-cased word tokens (letters and digits, umlauts kept), without stop words of English and German.
 * @example
 * contentWords('The captain takes the penalty shot'); // ['captain', 'takes', 'penalty', 'shot']
 */
export function contentWords(text: string): string[] {
  return words(text.toLowerCase()).filter(isContentWord);
}

/**
 * Whether a lower-cased word carries meaning (not an English or German stop word, not one letter).
 * @example
 * isContentWord('penalty'); // true
 * isContentWord('the'); // false
 */
export function isContentWord(word: string): boolean {
  return word.length > 1 && !STOP_EN.has(word) && !STOP_DE.has(word);
}

/**
 * English or German by their stop words, for text whose source names no language (an unnamed subtitle
 * file); null when neither has at least three more hits than the other.
 * @example
 * guessLanguage(['Morgen gibt es viel Schnee in Berlin.', 'Die Temperaturen fallen unter null Grad.']); // 'de'
 */
export function guessLanguage(texts: string[]): Lang | null {
  let en = 0;
  let de = 0;
  for (const w of words(texts.join(' ').toLowerCase())) {
    const inEn = STOP_EN.has(w);
    const inDe = STOP_DE.has(w);
    if (inEn && !inDe) en++;
    if (inDe && !inEn) de++;
  }
  if (Math.abs(en - de) < 3) return null;
  return en > de ? 'en' : 'de';
}

/**
 * Splits text into sentences at . ! ? (keeping short fragments joined to their neighbour).
 * @example
 * sentences('Hello there. How are you?'); // ['Hello there.', 'How are you?']
 */
export function sentences(text: string): string[] {
  const parts = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?…])\s+(?=[\p{Lu}\p{N}"„«])/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const p of parts) {
    if (out.length && p.split(' ').length < 3) out[out.length - 1] += ` ${p}`;
    else out.push(p);
  }
  return out;
}

/** Sparse TF-IDF vectors, unit length, keyed by word. */
export type SparseVector = Map<string, number>;

/**
 * TF-IDF vectors for a set of documents (each a list of words), normalised to unit length.
 * @example
 * const [a, b] = tfidf([contentWords(x), contentWords(y)]);
 * cosine(a, b);
 */
export function tfidf(docs: string[][]): SparseVector[] {
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const w of d) tf.set(w, (tf.get(w) ?? 0) + 1);
    const v: SparseVector = new Map();
    let norm = 0;
    for (const [w, n] of tf) {
      const x = (1 + Math.log(n)) * Math.log(1 + docs.length / (df.get(w) ?? 1));
      v.set(w, x);
      norm += x * x;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [w, x] of v) v.set(w, x / norm);
    return v;
  });
}

/**
 * The sum of sparse vectors: its dot product with a vector is that vector's summed dot product with each.
 * @example
 * sumSparse([new Map([['a', 1]]), new Map([['a', 0.5], ['b', 1]])]); // Map { a: 1.5, b: 1 }
 */
export function sumSparse(vecs: SparseVector[]): SparseVector {
  const out: SparseVector = new Map();
  for (const v of vecs) for (const [w, x] of v) out.set(w, (out.get(w) ?? 0) + x);
  return out;
}

/**
 * Cosine of two unit sparse vectors.
 * @example
 * cosine(a, a); // 1
 */
export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [w, x] of small) s += x * (large.get(w) ?? 0);
  return s;
}
