/** The relevance benchmark's per-query table, on stderr so the last stdout line stays the JSON. */
import type { QueryOutcome } from './metrics.js';

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

/**
 * Writes one row per query: hit or miss, kind, nDCG@10, rank of the meant moment, the query, and what came first.
 * @example
 * printTable(outcomes);
 * //  ok  titles      1.000  1  apple cake          apple-cake@5.5 Today we bake my grandmother's famous apple cake.
 */
export function printTable(outcomes: QueryOutcome[], write: (line: string) => void = (l) => void process.stderr.write(`${l}\n`)): void {
  write(`${'     '}${cut('kind', 11)} ${'ndcg'.padStart(5)} ${'rank'.padStart(4)}  ${cut('query', 32)} first result`);
  for (const o of outcomes) {
    const first = o.first ? `${o.first.media_id}@${o.first.start_time} ${o.first.content ?? ''}` : '(no results)';
    const ndcg = o.ndcg10 === null ? '  -  ' : o.ndcg10.toFixed(3);
    write(`${o.hit ? ' ok  ' : 'MISS '}${cut(o.kind, 11)} ${ndcg} ${String(o.rank ?? '-').padStart(4)}  ${cut(o.query, 32)} ${cut(first.replace(/\s+/g, ' '), 90)}`);
    if (!o.hit && o.ndcg10 !== null) write(`${''.padStart(57)}meant: ${cut(o.meant, 90)}`);
  }
}
