import type { FileLinks } from '../file-links.js';

/**
 * Replaces the data-dir thumbnail paths of a stored /analyze result with signed links (fresh on every read),
 * bound to the task owner's key: they belong to no collection, so they stop when that key is revoked.
 * @example
 * presentAnalyzeResult(task.result, links, task.owner).episodic_summary[0].thumbnail; // 'http://127.0.0.1:8484/files/…?exp=…&k=…&sig=…'
 */
export function presentAnalyzeResult(result: unknown, links: FileLinks, owner: string): unknown {
  const r = result as { episodic_summary?: { thumbnail: string | null }[] };
  if (!Array.isArray(r?.episodic_summary)) return result;
  return {
    ...r,
    episodic_summary: r.episodic_summary.map((e) => ({ ...e, thumbnail: e.thumbnail ? links.file(e.thumbnail, owner) : null })),
  };
}
