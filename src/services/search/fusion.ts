/**
 * Reciprocal rank fusion of ranked episode lists (word FTS, trigram FTS, passage vectors, frame vectors).
 */
import { FUSION } from './ranking-knobs.js';

/** One ranked list of episode pks, best first, and how much a place in it counts. */
export interface RankedList {
  name: string;
  weight: number;
  pks: number[];
}

/** A ranked list with the moment in each episode that made it match (a frame's time), where there is one. */
export interface TimedList {
  list: RankedList;
  times: Map<number, number>;
}

/** A fused result: score in 0..1, 1 meaning first in every list that was consulted. */
export interface Fused {
  pk: number;
  score: number;
  /** Names of the lists the episode was found in. */
  via: string[];
}

/**
 * Fuses ranked lists: each episode scores Σ weight / (k + rank) over the lists it is in (k: FUSION.k in
 * ranking-knobs.ts), divided by the best
 * score possible (rank 1 in all of them), so scores are 0..1 and comparable within one response.
 * Ties keep the order of the first list that has them.
 * @example
 * fuse([{ name: 'fts', weight: 1, pks: [7, 3] }, { name: 'vec', weight: 1, pks: [3] }]);
 * // [{ pk: 3, score: 0.976…, via: ['fts', 'vec'] }, { pk: 7, score: 0.5, via: ['fts'] }]
 */
export function fuse(lists: RankedList[], k: number = FUSION.k): Fused[] {
  const best = lists.reduce((s, l) => s + l.weight / (k + 1), 0);
  if (best === 0) return [];
  const byPk = new Map<number, Fused & { order: number }>();
  let order = 0;
  for (const list of lists) {
    list.pks.forEach((pk, i) => {
      let f = byPk.get(pk);
      if (!f) {
        f = { pk, score: 0, via: [], order: order++ };
        byPk.set(pk, f);
      }
      if (f.via.includes(list.name)) return;
      f.score += list.weight / (k + i + 1);
      f.via.push(list.name);
    });
  }
  return [...byPk.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ pk, score, via }) => ({ pk, score: Math.min(1, score / best), via }));
}
