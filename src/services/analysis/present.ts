import type { MediaLinks } from '../links.js';

/**
 * Replaces the data-dir thumbnail paths of a stored /analyze result with signed links (fresh on every read).
 * @example
 * presentAnalyzeResult(task.result, links).episodic_summary[0].thumbnail; // 'http://127.0.0.1:8484/files/…?exp=…&sig=…'
 */
export function presentAnalyzeResult(result: unknown, links: MediaLinks): unknown {
  const r = result as { episodic_summary?: { thumbnail: string | null }[] };
  if (!Array.isArray(r?.episodic_summary)) return result;
  return {
    ...r,
    episodic_summary: r.episodic_summary.map((e) => ({ ...e, thumbnail: e.thumbnail ? links.file(e.thumbnail) : null })),
  };
}
