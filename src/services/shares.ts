import { randomBytes, randomUUID } from 'node:crypto';
import type { Repos } from '../store/index.js';
import type { ShareRow } from '../store/shares.js';
import type { Caller } from './caller.js';
import { nowIso, systemClock, type WallClock } from './timestamps.js';
import type { CollectionService } from './collections.js';
import { notFound, Problem } from './errors.js';
import type { FileLinks } from './file-links.js';
import { msg, type Lang } from '../messages/index.js';
import { chapterTitle } from '../analysis/phrases.js';
import { pictureLink } from './shown-pictures.js';

/** A share as its owner sees it; `token` goes into the link the HTTP layer builds. */
export interface ShareView {
  share_id: string;
  token: string;
  media_id: string;
  start_time: number;
  created_at: string;
  expires_at: string;
}

/** What a share link shows without a key: one item's picture, sound and text, read-only. */
export interface SharedMoment {
  title: string | null;
  type: 'video' | 'audio' | 'image';
  duration: number | null;
  start_time: number;
  expires_at: string;
  /** Signed links that stop working when the share is revoked. */
  src: string | null;
  /** A photo as every browser shows it (see shownPicturePath); null for video and audio. */
  picture_url: string | null;
  thumbnail_url: string | null;
  /** `title`: the summary, else what the chapter is ("Voice memo, part 1"), in the reader's language (else the item's). */
  chapters: { start: number; end: number; summary: string; title: string }[];
  transcript: { start: number; end: number; text: string; speaker: number | null }[];
}

/** How long a share lasts: one day or one week. */
export const SHARE_DAYS = [1, 7] as const;

/**
 * The key a share's signed links are bound to (see ServedFiles): revoking the share stops them.
 * @example
 * links.file(stored, shareLinkKey(share.share_id));
 */
export function shareLinkKey(shareId: string): string {
  return `share:${shareId}`;
}

/**
 * Share links to a moment of one item: made, listed and revoked by the item's owner (or an admin), opened
 * by anyone who has the link until it expires. Only that item, only to watch: no search, no other item,
 * no people, no metadata.
 * @example
 * const s = shares.create(caller, 'family', 'birthday', { days: 7, start_time: 42 });
 * shares.open(s.token).src; // a signed link to the video
 */
export class ShareService {
  constructor(
    private readonly store: Repos<'collections' | 'items' | 'keys' | 'search' | 'shares'>,
    private readonly collections: CollectionService,
    private readonly links: FileLinks,
    private readonly time: WallClock = systemClock,
  ) {}

  create(caller: Caller, collectionId: string, mediaId: string, input: { days: (typeof SHARE_DAYS)[number]; start_time?: number }): ShareView {
    const { collection, item } = this.ownItem(caller, collectionId, mediaId);
    const start = input.start_time ?? 0;
    if (item.duration !== null && start > item.duration) {
      throw new Problem('invalid', msg('start_past_end', { start, duration: item.duration }), [{ field: 'start_time', message: msg('past_end_of_item') }]);
    }
    const at = this.time.now();
    const row: ShareRow = {
      share_id: randomUUID(),
      token: randomBytes(24).toString('base64url'),
      collection_pk: collection.pk,
      media_id: mediaId,
      start_time: start,
      owner: caller.id,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + input.days * 86_400_000).toISOString(),
    };
    this.store.shares.insert(row);
    return view(row);
  }

  list(caller: Caller, collectionId: string, mediaId: string): ShareView[] {
    const { collection } = this.ownItem(caller, collectionId, mediaId);
    return this.store.shares.ofItem(collection.pk, mediaId, nowIso(this.time)).map(view);
  }

  revoke(caller: Caller, collectionId: string, mediaId: string, shareId: string): ShareView {
    const { collection } = this.ownItem(caller, collectionId, mediaId);
    const row = this.store.shares.byId(shareId, nowIso(this.time));
    if (!row || row.collection_pk !== collection.pk || row.media_id !== mediaId) throw notFound('share', shareId);
    this.store.shares.delete(shareId);
    return view(row);
  }

  /**
   * What a share link shows; 404 when it is unknown, expired, revoked, or its owner's key or item is gone.
   * `reader`: the language of the words vidx adds to chapters without words ("Voice memo, part 1"); else the item's.
   */
  open(token: string, reader?: Lang): SharedMoment {
    const share = this.live(token);
    const item = share && this.store.items.find(share.collection_pk, share.media_id);
    if (!share || !item) throw new Problem('not_found', msg('share_link_gone'));
    const key = shareLinkKey(share.share_id);
    const analysis = this.store.search.analysisOf(item.pk);
    const episodes = this.store.search.episodesOfItem(item.pk);
    const audio = this.store.search.segmentsOf(episodes.map((e) => e.pk)).filter((s) => s.kind === 'audio');
    const stored = item.src ? null : analysis?.stored_file;
    // A URL source plays from its URL; a kept file through a link bound to this share.
    const src = item.src ?? (stored ? this.links.file(stored, key) : null);
    return {
      title: item.title,
      type: item.type,
      duration: item.duration,
      start_time: share.start_time,
      expires_at: share.expires_at,
      src,
      picture_url: item.type !== 'image' ? null : pictureLink(stored, src, (p) => this.links.file(p, key)),
      thumbnail_url: item.thumbnail ? this.links.file(item.thumbnail, key) : null,
      chapters: episodes.map((e, i) => ({
        start: e.start,
        end: e.end,
        summary: e.summary,
        title: chapterTitle({ summary: e.summary, kind: item.type, title: item.title, index: i, count: episodes.length }, reader ?? (analysis?.language === 'de' ? 'de' : 'en')),
      })),
      transcript: audio.map((s) => ({ start: s.start, end: s.end, text: s.text, speaker: s.speaker ?? null })).sort((a, b) => a.start - b.start),
    };
  }

  /**
   * Whether a signed link bound to a share may serve a file of `collectionPk`/`mediaId`: the share lives,
   * is for that item, and its collection's owner key exists (checked by the caller).
   */
  allows(shareId: string, collectionPk: number, itemFolder: string): boolean {
    const row = this.store.shares.byId(shareId, nowIso(this.time));
    return row !== undefined && row.collection_pk === collectionPk && row.media_id === itemFolder;
  }

  private live(token: string): ShareRow | undefined {
    const row = this.store.shares.byToken(token, nowIso(this.time));
    if (!row) return undefined;
    const collection = this.store.collections.findLiveByPk(row.collection_pk);
    return collection && this.store.keys.get(collection.owner) ? row : undefined;
  }

  private ownItem(caller: Caller, collectionId: string, mediaId: string) {
    const collection = this.collections.writable(caller, collectionId);
    const item = this.store.items.find(collection.pk, mediaId);
    if (!item) throw notFound('media item', mediaId);
    return { collection, item };
  }
}

function view(row: ShareRow): ShareView {
  return { share_id: row.share_id, token: row.token, media_id: row.media_id, start_time: row.start_time, created_at: row.created_at, expires_at: row.expires_at };
}
