/**
 * Collections by id, so every view shows a collection's name rather than its identifier: headings,
 * selects, task titles. Loaded once per key and reloaded after a change.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api, Collection } from './api.js';

/** The caller's own collections, and every collection it can read (its own, then other owners' public ones). */
interface Known {
  own: Collection[];
  all: Collection[];
}

let cached: { api: Api; known: Promise<Known> } | null = null;
const listeners = new Set<() => void>();

function load(api: Api): Promise<Known> {
  if (cached?.api !== api) {
    const known = Promise.all([api.collections(false), api.collections(true)]).then(([mine, pub]) => {
      const seen = new Set(mine.collections.map((c) => c.collection_id));
      return { own: mine.collections, all: [...mine.collections, ...pub.collections.filter((c) => !seen.has(c.collection_id))] };
    });
    cached = { api, known };
    known.catch(() => (cached = null));
  }
  return cached.known;
}

/**
 * Tells every view that collections changed (created, renamed, deleted).
 * @example
 * api.createCollection(c).then(collectionsChanged);
 */
export function collectionsChanged(): void {
  cached = null;
  for (const l of listeners) l();
}

/**
 * The caller's own collections and the public ones, and a function from id to name (the id while unknown).
 * @example
 * const { name, own } = useCollections(api);
 * name('family-videos'); // 'Family videos'
 */
export function useCollections(api: Api): { list: Collection[]; own: Collection[]; name: (id: string) => string } {
  const [list, setList] = useState<Collection[]>([]);
  const [own, setOwn] = useState<Collection[]>([]);
  useEffect(() => {
    let live = true;
    const refresh = () =>
      void load(api).then((k) => {
        if (!live) return;
        setList(k.all);
        setOwn(k.own);
      }, () => undefined);
    // Shown at once from what is known, and asked again: another tab (or script) may have changed names.
    // Nothing known yet is asked once: the first answer is the fresh one.
    const known = cached?.api === api;
    refresh();
    if (known) {
      cached = null;
      refresh();
    }
    listeners.add(refresh);
    return () => {
      live = false;
      listeners.delete(refresh);
    };
  }, [api]);
  return { list, own, name: (id) => list.find((c) => c.collection_id === id)?.name ?? id };
}
