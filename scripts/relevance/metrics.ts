/**
 * Ranking-quality figures of the relevance benchmark: graded nDCG@k, the first-hit rate, no-answer checks
 * and the misses. Pure functions over judged moments and the results a search returned.
 */
import type { JudgedMoment, JudgedQuery, QueryKind } from './types.js';

/** What the metrics read of one search result (a subset of POST /search's result object). */
export interface RankedResult {
  media_id: string;
  start_time: number;
  content?: string;
}

/**
 * A result may start this long before the judged line (a start rounded down, a cue shown early).
 * @example
 * result.start_time >= line.start - EARLY_SEC;
 */
export const EARLY_SEC = 0.5;

/**
 * The judged moment a result is, if any: same media_id and start_time in [start − 0.5 s, end].
 * @example
 * judgedMomentOf({ media_id: 'a', start_time: 5.2 }, [{ media_id: 'a', start: 5.5, end: 9.5, grade: 2, text: '' }]); // that moment
 */
export function judgedMomentOf(result: RankedResult, judged: JudgedMoment[]): JudgedMoment | undefined {
  return judged.find((j) => j.media_id === result.media_id && result.start_time >= j.start - EARLY_SEC && result.start_time <= j.end);
}

/**
 * The grade of each result in rank order (0 when not judged). A judged moment is credited once, at the
 * first result that is it: a second result on the same line adds nothing.
 * @example
 * gradesOf([{ media_id: 'a', start_time: 6 }, { media_id: 'a', start_time: 7 }], judged); // [2, 0]
 */
export function gradesOf(results: RankedResult[], judged: JudgedMoment[]): number[] {
  const credited = new Set<JudgedMoment>();
  return results.map((r) => {
    const j = judgedMomentOf(r, judged);
    if (!j || credited.has(j)) return 0;
    credited.add(j);
    return j.grade;
  });
}

/**
 * Discounted cumulative gain of the first `k` grades: gain 2^grade − 1, discount log2(rank + 1) with rank from 1.
 * @example
 * dcg([2, 0, 1]); // 3 / 1 + 0 + 1 / 2 = 3.5
 */
export function dcg(grades: number[], k = 10): number {
  let sum = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) sum += (2 ** grades[i] - 1) / Math.log2(i + 2);
  return sum;
}

/**
 * nDCG@k: the DCG of the results over the DCG of the judged moments in their best order; null when
 * nothing is judged (a no-answer query has no nDCG).
 * @example
 * ndcgAt([{ media_id: 'a', start_time: 6 }], [{ media_id: 'a', start: 5.5, end: 9.5, grade: 2, text: '' }]); // 1
 */
export function ndcgAt(results: RankedResult[], judged: JudgedMoment[], k = 10): number | null {
  const ideal = dcg(
    judged.map((j) => j.grade).sort((a, b) => b - a),
    k,
  );
  return ideal === 0 ? null : dcg(gradesOf(results.slice(0, k), judged), k) / ideal;
}

/**
 * Whether an answer to a no-answer query is right: it holds no result at all. The collection holds none
 * of the query's words nor a word within two edits of one, so any result matches through nothing the
 * moment itself says; whatever comes first is wrong on top.
 * @example
 * noAnswerOk([]); // true
 */
export function noAnswerOk(results: RankedResult[]): boolean {
  return results.length === 0;
}

/** How one query fared. */
export interface QueryOutcome {
  query: string;
  kind: QueryKind;
  /** null for a no-answer query. */
  ndcg10: number | null;
  /** A judged-2 moment came first; for a no-answer query: the answer was right ({@link noAnswerOk}). */
  hit: boolean;
  /** 1-based rank of the first judged-2 moment; null when absent from the results (or no-answer). */
  rank: number | null;
  results: number;
  first: RankedResult | null;
  /** The meant line(s), for the table. */
  meant: string;
}

/**
 * Scores one query's results against its judged moments.
 * @example
 * scoreQuery({ query: 'x', kind: 'plain', language: 'en', moments: judged }, results).hit;
 */
export function scoreQuery(q: JudgedQuery, results: RankedResult[], k = 10): QueryOutcome {
  const top = results.slice(0, k);
  const noAnswer = q.moments.length === 0;
  const grades = gradesOf(top, q.moments);
  const at = grades.indexOf(2);
  return {
    query: q.query,
    kind: q.kind,
    ndcg10: noAnswer ? null : ndcgAt(top, q.moments, k),
    hit: noAnswer ? noAnswerOk(top) : grades[0] === 2,
    rank: at < 0 ? null : at + 1,
    results: top.length,
    first: top[0] ?? null,
    meant: q.moments.filter((m) => m.grade === 2).map((m) => `${m.media_id}@${m.start}: ${m.text}`).join(' | ') || '(nothing)',
  };
}

/** A query whose meant moment did not come first (or a no-answer query that got results). */
export interface Miss {
  query: string;
  kind: QueryKind;
  /** 1-based rank of the meant moment, null when not in the top 10. */
  rank: number | null;
  /** What came first: media_id@start_time and its text, or null for an empty answer. */
  first: string | null;
}

/** The benchmark's figures; `ndcg10` averages the answerable queries, `first_hit` all queries. */
export interface Summary {
  queries: number;
  ndcg10: number;
  first_hit: number;
  no_answer_ok: number;
  misses: Miss[];
  by_kind: Record<string, { queries: number; ndcg10: number | null; first_hit: number }>;
}

const describe = (r: RankedResult): string => `${r.media_id}@${r.start_time}${r.content ? `: ${r.content}` : ''}`;
const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function figures(outcomes: QueryOutcome[]): { ndcg10: number | null; first_hit: number } {
  const judged = outcomes.flatMap((o) => (o.ndcg10 === null ? [] : [o.ndcg10]));
  return { ndcg10: judged.length ? round3(mean(judged)) : null, first_hit: round3(mean(outcomes.map((o) => (o.hit ? 1 : 0)))) };
}

/**
 * The figures over all outcomes: mean nDCG@10 of the answerable queries, first-hit rate of all queries (a
 * right no-answer counts as a hit), the share of no-answer queries answered right, the misses, and the
 * same per kind.
 * @example
 * summarize(outcomes).first_hit; // 0.913
 */
export function summarize(outcomes: QueryOutcome[]): Summary {
  const noAnswer = outcomes.filter((o) => o.ndcg10 === null);
  const all = figures(outcomes);
  const byKind: Summary['by_kind'] = {};
  for (const kind of [...new Set(outcomes.map((o) => o.kind))]) {
    const of = outcomes.filter((o) => o.kind === kind);
    byKind[kind] = { queries: of.length, ...figures(of) };
  }
  return {
    queries: outcomes.length,
    ndcg10: all.ndcg10 ?? 0,
    first_hit: all.first_hit,
    no_answer_ok: round3(mean(noAnswer.map((o) => (o.hit ? 1 : 0)))),
    misses: outcomes
      .filter((o) => !o.hit)
      .map((o) => ({ query: o.query, kind: o.kind, rank: o.rank, first: o.first ? describe(o.first) : null })),
    by_kind: byKind,
  };
}
