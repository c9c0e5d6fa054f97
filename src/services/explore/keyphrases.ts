import { isContentWord } from '../analysis/text.js';

/** A phrase that stands out in a group of texts, as most often written, with the documents it occurs in. */
export interface KeyPhrase {
  /** Lower-cased key. */
  phrase: string;
  /** The most frequent spelling in the texts ("Sunset over the Lake"). */
  surface: string;
  score: number;
  docs: number[];
}

/** Phrase candidates of one text: 1–4 words inside a clause, starting and ending with a content word. */
function candidates(text: string): { key: string; surface: string }[] {
  const out: { key: string; surface: string }[] = [];
  for (const clause of text.split(/[.!?,;:\n/"“”„«»()…|]+|\s[-–—]\s/u)) {
    const words = clause.match(/[\p{L}\p{N}]+/gu) ?? [];
    const lower = words.map((w) => w.toLowerCase());
    for (let i = 0; i < words.length; i++) {
      if (!isContentWord(lower[i])) continue;
      for (let n = 1; n <= 4 && i + n <= words.length; n++) {
        const last = lower[i + n - 1];
        if (!isContentWord(last)) continue;
        const inner = lower.slice(i, i + n).filter((w) => !isContentWord(w)).length;
        if (inner > 2) break;
        // "Morgen gibt es viel Morgen": a phrase never names a word twice.
        if (new Set(lower.slice(i, i + n)).size < n) break;
        out.push({ key: lower.slice(i, i + n).join(' '), surface: words.slice(i, i + n).join(' ') });
      }
    }
  }
  return out;
}

function contentOf(phrase: string): string[] {
  return phrase.split(' ').filter(isContentWord);
}

/**
 * Distinctive phrases of the `group` documents measured against all `docs`: frequent in the group, rare
 * elsewhere (TF-IDF over phrase candidates), longer phrases favoured. Chosen phrases share no content word,
 * so they read as different ideas; phrases made only of `exclude` words are skipped.
 * @example
 * keyPhrases(['Penalty shot training', 'the penalty shot'], [0, 1], 3)[0].surface; // 'Penalty shot'
 */
export function keyPhrases(docs: string[], group: number[], k: number, exclude: string[] = []): KeyPhrase[] {
  const perDoc = docs.map(candidates);
  const df = new Map<string, number>();
  for (const c of perDoc) for (const key of new Set(c.map((x) => x.key))) df.set(key, (df.get(key) ?? 0) + 1);
  const inGroup = new Map<string, { tf: number; docs: Set<number>; surfaces: Map<string, number> }>();
  for (const i of group) {
    for (const { key, surface } of perDoc[i]) {
      const e = inGroup.get(key) ?? { tf: 0, docs: new Set<number>(), surfaces: new Map<string, number>() };
      e.tf++;
      e.docs.add(i);
      e.surfaces.set(surface, (e.surfaces.get(surface) ?? 0) + 1);
      inGroup.set(key, e);
    }
  }
  const skip = new Set(exclude.flatMap((x) => x.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
  const scored: KeyPhrase[] = [];
  for (const [key, e] of inGroup) {
    const words = contentOf(key);
    if (words.every((w) => skip.has(w) || /^\d+$/.test(w))) continue;
    const idf = Math.log(1 + docs.length / (df.get(key) ?? 1));
    const spread = e.docs.size / group.length;
    const surface = [...e.surfaces.entries()].sort((a, b) => b[1] - a[1])[0][0];
    scored.push({ phrase: key, surface, score: (1 + Math.log(e.tf)) * idf * (0.5 + spread) * (1 + 0.3 * (words.length - 1)), docs: [...e.docs] });
  }
  scored.sort((a, b) => b.score - a.score);
  const out: KeyPhrase[] = [];
  const used = new Set<string>();
  for (const c of scored) {
    if (out.length >= k) break;
    const words = contentOf(c.phrase);
    if (words.some((w) => used.has(w))) continue;
    for (const w of words) used.add(w);
    out.push(c);
  }
  return out;
}

/**
 * Capitalises the first letter: the form of a topic label.
 * @example
 * titleCase('penalty shot'); // 'Penalty shot'
 */
export function titleCase(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}
