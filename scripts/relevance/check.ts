/**
 * Checks the judged set before a run, so a slip in writing it cannot pass as a ranking result: enough
 * queries in both languages, and no-answer queries that truly have no answer in the collection.
 */
import type { JudgedQuery, MediaSpec } from './types.js';

/**
 * Levenshtein distance between two words.
 * @example
 * editDistance('sandpapper', 'sandpaper'); // 1
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Every word of the collection: titles, lines and slides, lower-cased.
 * @example
 * vocabulary(CORPUS).has('sandpaper'); // true
 */
export function vocabulary(corpus: MediaSpec[]): Set<string> {
  return new Set(corpus.flatMap((m) => [m.title, ...m.lines.map((l) => l.text), ...m.slides.map((s) => s.text)].flatMap(words)));
}

/**
 * The problems of a judged set; empty when it is fit to run. A no-answer query word (3+ letters) must be
 * more than two edits from every collection word and share no 4-letter start or part with one, so neither
 * stemming, compound splitting nor typo correction can honestly find it.
 * @example
 * checkJudgedSet(CORPUS, QUERIES); // []
 */
export function checkJudgedSet(corpus: MediaSpec[], queries: JudgedQuery[]): string[] {
  const problems: string[] = [];
  if (queries.length < 32) problems.push(`only ${queries.length} queries, want 32 or more`);
  for (const lang of ['en', 'de'] as const) if (!queries.some((q) => q.language === lang)) problems.push(`no ${lang} query`);
  const vocab = [...vocabulary(corpus)];
  for (const q of queries.filter((x) => x.moments.length === 0)) {
    for (const w of words(q.query).filter((x) => x.length >= 3)) {
      const near = vocab.find((v) => editDistance(v, w) <= 2 || (v.length >= 4 && w.includes(v)) || (w.length >= 4 && v.includes(w)) || v.slice(0, 4) === w.slice(0, 4));
      if (near) problems.push(`no-answer query "${q.query}": "${w}" is close to "${near}" in the collection`);
    }
  }
  const ids = new Set(corpus.map((m) => m.id));
  for (const q of queries) for (const m of q.moments) if (!ids.has(m.media_id)) problems.push(`"${q.query}" judges unknown medium ${m.media_id}`);
  return problems;
}
