import type { EpisodeFace } from './people/service.js';
import type { Store } from '../store/index.js';
import type { Caller } from './caller.js';
import type { Lookup } from './collections.js';
import type { ItemService } from './items.js';
import type { FileLinks } from './file-links.js';

/** One episode of GET .../analysis (the SPEC leaves its fields open; vidx's choice). */
export interface EpisodeView {
  /** Index of the episode within the media, as in search results. */
  episode_id: number;
  start: number;
  end: number;
  summary: string;
  /** Signed thumbnail URL, null when there is no picture. */
  thumbnail_url: string | null;
  /** Transcript segments overlapping the episode. */
  audio: { start: number; end: number; text: string }[];
  /** What is seen, in stretches. */
  visual: { start: number; end: number; summary: string }[];
  /** Distinct on-screen text lines read in the episode. */
  on_screen_text: string[];
  /** Distinct visual tags of the episode. */
  tags: string[];
  /** Faces seen in the episode (`{person_id, start, end, box, score, thumbnail}`), null when the collection's faces setting is off. */
  faces: EpisodeFace[] | null;
}

/** GET /collections/{collection_id}/items/{media_id}/analysis (SPEC 2.6). */
export interface AnalysisView {
  video_summary: string;
  video_duration: number;
  /** The language it was analysed in (as /analyze returns it); null when not analysed. */
  language: 'en' | 'de' | null;
  episodes: EpisodeView[];
}

/**
 * Reads back what indexing stored for an item. An item without an analysis (not indexed by vidx) has the
 * SPEC's defaults: an empty summary, its duration or 0, no episodes.
 * @example
 * const a = analysis.get(caller, 'matches', 'final-2024', { public: false });
 */
export class ItemAnalysisService {
  constructor(
    private readonly store: Store,
    private readonly items: ItemService,
    private readonly links: FileLinks,
    /** The episode faces of an item (PeopleService.episodeFaces); absent: always null. */
    private readonly faces?: (collectionPk: number, itemPk: number) => ((start: number, end: number) => EpisodeFace[]) | null,
  ) {}

  get(caller: Caller, collectionId: string, mediaId: string, opts: Lookup = {}): AnalysisView {
    const item = this.items.row(caller, collectionId, mediaId, opts);
    const repo = this.store.search;
    const analysis = repo.analysisOf(item.pk);
    const episodes = repo.episodesOfItem(item.pk);
    const segments = repo.segmentsOf(episodes.map((e) => e.pk));
    const facesIn = this.faces?.(item.collection_pk, item.pk) ?? null;
    return {
      video_summary: analysis?.summary ?? '',
      video_duration: analysis?.duration ?? item.duration ?? 0,
      language: analysis?.language === 'de' ? 'de' : analysis ? 'en' : null,
      episodes: episodes.map((e) => {
        const own = segments.filter((s) => s.episode_pk === e.pk);
        return {
          episode_id: e.idx,
          start: e.start,
          end: e.end,
          summary: e.summary,
          thumbnail_url: e.thumbnail ? this.links.file(e.thumbnail) : null,
          audio: own.filter((s) => s.kind === 'audio').map((s) => ({ start: s.start, end: s.end, text: s.text })),
          visual: own.filter((s) => s.kind === 'visual').map((s) => ({ start: s.start, end: s.end, summary: s.text })),
          on_screen_text: e.screen_text ? e.screen_text.split('\n') : [],
          tags: JSON.parse(e.tags) as string[],
          faces: facesIn ? facesIn(e.start, e.end) : null,
        };
      }),
    };
  }
}
