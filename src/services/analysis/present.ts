import { sayWarnings } from '../../analysis/warnings.js';
import type { Lang } from '../../messages/index.js';
import type { FileLinks } from '../file-links.js';

/**
 * A stored result's type as shown: its keyed warnings said in words.
 * @example
 * true satisfies SameShape<z.output<typeof IndexResult>, WarningsSaid<IndexResultType>>;
 */
export type WarningsSaid<T extends { warnings: unknown }> = Omit<T, 'warnings'> & { warnings: string[] };

/**
 * A stored /index or /analyze result with its warnings said in the reader's language: the task keeps them
 * keyed (results of older versions hold words, which stay as they are), the API shows words.
 * @example
 * presentWarnings(task.result, 'de').warnings; // ['Kein Transkript: keine Untertitel und keine Sprache gefunden']
 */
export function presentWarnings(result: unknown, lang: Lang): unknown {
  const r = result as { warnings?: unknown } | null;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.warnings)) return result;
  return { ...r, warnings: sayWarnings(r.warnings, lang) };
}

/**
 * Replaces the data-dir thumbnail paths of a stored /analyze result with signed links (fresh on every read),
 * bound to the task owner's key: they belong to no collection, so they stop when that key is revoked. Its
 * warnings are said in the reader's language.
 * @example
 * presentAnalyzeResult(task.result, links, task.owner, 'en').episodic_summary[0].thumbnail; // 'http://127.0.0.1:8484/files/…?exp=…&k=…&sig=…'
 */
export function presentAnalyzeResult(result: unknown, links: FileLinks, owner: string, lang: Lang): unknown {
  const r = presentWarnings(result, lang) as { episodic_summary?: { thumbnail: string | null }[] };
  if (!Array.isArray(r?.episodic_summary)) return r;
  return {
    ...r,
    episodic_summary: r.episodic_summary.map((e) => ({ ...e, thumbnail: e.thumbnail ? links.file(e.thumbnail, owner) : null })),
  };
}
