import { kindName, momentsLine, type MediaKind } from '../../analysis/phrases.js';
import type { SearchResult } from '../search/index.js';
import { clock } from '../../tools/clock.js';
import { copyKey, type CopyGroups } from './copies.js';
import type { Lang } from '../../messages/index.js';

/**
 * An item as a person knows it: its title, else what it is ("Photo"); never its id.
 * @example
 * itemName(hit, 'de'); // 'Apple cake vlog', or 'Foto' for a photo without a title
 */
export function itemName(r: SearchResult, language: Lang): string {
  return r.title?.trim() || kindName(r.media_type, language);
}

/** A moment named by its item, and the time within it for media that have a clock ("Vlog 0:10", "Beach"). */
function momentName(r: SearchResult, language: Lang): string {
  return r.media_type === 'image' ? itemName(r, language) : `${itemName(r, language)} ${clock(r.start_time)}`;
}

/**
 * The hits of a cluster that only repeat a copy: of each group of copies, the hits of the item met first
 * (the best hit's) stand for it, those of its other copies are shadows.
 * @example
 * copyShadows([hd, small], { small: 'hd' }); // Set { small }
 */
export function copyShadows(group: SearchResult[], copies: CopyGroups): Set<SearchResult> {
  const first = new Map<string, string>();
  const shadows = new Set<SearchResult>();
  for (const r of group) {
    const key = copyKey(copies, r.media_id);
    const met = first.get(key);
    if (met === undefined) first.set(key, r.media_id);
    else if (met !== r.media_id) shadows.add(r);
  }
  return shadows;
}

/**
 * The line under a cluster: how many moments in how many items of each kind, and where. A video and its
 * copies are one item: its moments are those of the copy with the most hits (a trimmed copy holds fewer),
 * only the first copy's are named, and the others are counted at the end ("also in 2 copies").
 * @example
 * clusterLine([vlog, vlogCopy, beach], { 'vlog-copy': 'vlog' }, 'en'); // '2 moments in 1 video and 1 photo: Vlog 0:10, Beach (also in 1 copy)'
 */
export function clusterLine(group: SearchResult[], copies: CopyGroups, language: Lang): string {
  const shadows = copyShadows(group, copies);
  const hits = new Map<string, Map<string, number>>();
  const items: Partial<Record<MediaKind, number>> = {};
  for (const r of group) {
    const key = copyKey(copies, r.media_id);
    const own = hits.get(key) ?? new Map<string, number>();
    if (!hits.has(key)) items[r.media_type] = (items[r.media_type] ?? 0) + 1;
    own.set(r.media_id, (own.get(r.media_id) ?? 0) + 1);
    // A hit search already showed once for its copies names them: each is a copy that has the moment too.
    for (const c of r.copies ?? []) own.set(c.media_id, own.get(c.media_id) ?? 0);
    hits.set(key, own);
  }
  const moments = [...hits.values()].reduce((sum, own) => sum + Math.max(...own.values()), 0);
  const copyCount = [...hits.values()].reduce((sum, own) => sum + own.size - 1, 0);
  const where = group.filter((r) => !shadows.has(r)).slice(0, 6).map((r) => momentName(r, language)).join(', ');
  return momentsLine(moments, items, where, language, copyCount);
}
