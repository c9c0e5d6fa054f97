/**
 * A query as it was searched after some of its words were read as others (typo correction): what
 * "Showing results for …" says. Shared by the server's answer and the page, which joins the corrections
 * of several collections' answers.
 */

/** A query word and the word it was searched as. */
export interface WordCorrection {
  from: string;
  to: string;
}

/**
 * The query with each corrected word replaced (case-insensitively, whole words only); when no word is found
 * as typed (the server folded it: Straße read as strasse), the words searched instead, alone.
 * @example
 * correctedQuery('Sandpapper grit', [{ from: 'sandpapper', to: 'sandpaper' }]); // 'sandpaper grit'
 */
export function correctedQuery(query: string, corrected: readonly WordCorrection[]): string {
  const to = new Map(corrected.map((c) => [c.from.toLowerCase(), c.to]));
  const shown = query.replace(/[\p{L}\p{N}]+/gu, (w) => to.get(w.toLowerCase()) ?? w);
  return shown === query ? corrected.map((c) => c.to).join(' ') : shown;
}
