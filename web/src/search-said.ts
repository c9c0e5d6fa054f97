/**
 * What search answers say besides their results (notices, corrected words), gathered over the answers of
 * several collections: the same notice or correction from two collections is shown once.
 */
import type { SearchSaid } from './api.js';

/** Nothing said: before a search, or for a public collection searched through its clusters. */
export const NOTHING_SAID: SearchSaid = { notices: [], corrected: [] };

/** One notice of an answer. */
export type Notice = SearchSaid['notices'][number];

/** Two answers' notice of one code as one: the items each names (up to three in all), their counts added. */
function joinNotice(a: Notice, b: Notice): Notice {
  if (!a.items || !b.items) return a;
  return { ...a, items: [...a.items, ...b.items].slice(0, 3), item_count: (a.item_count ?? a.items.length) + (b.item_count ?? b.items.length) };
}

/**
 * The notices and corrections of both, each once (a notice by its code, its items gathered; a correction by its two words).
 * @example
 * joinSaid({ notices: [a], corrected: [] }, { notices: [a], corrected: [{ from: 'sandpapper', to: 'sandpaper' }] });
 * // { notices: [a], corrected: [{ from: 'sandpapper', to: 'sandpaper' }] }
 */
export function joinSaid(a: SearchSaid, b: SearchSaid): SearchSaid {
  const codes = new Set(a.notices.map((n) => n.code));
  const pairs = new Set(a.corrected.map((c) => `${c.from}\n${c.to}`));
  const joined = a.notices.map((n) => {
    const same = b.notices.find((m) => m.code === n.code);
    return same ? joinNotice(n, same) : n;
  });
  return {
    notices: [...joined, ...b.notices.filter((n) => !codes.has(n.code) && codes.add(n.code))],
    corrected: [...a.corrected, ...b.corrected.filter((c) => !pairs.has(`${c.from}\n${c.to}`) && pairs.add(`${c.from}\n${c.to}`))],
    // Each collection reads the words against its own places: the first that understood something speaks for all.
    ...((a.understood ?? b.understood) ? { understood: a.understood ?? b.understood } : {}),
  };
}

/** The query as searched: each corrected word replaced (one copy, shared with the server's answer). */
export { correctedQuery } from '../../src/tools/corrected-query.js';
