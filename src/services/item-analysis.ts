import type { EpisodeFace } from './people/service.js';
import type { Repos } from '../store/index.js';
import type { Caller } from './caller.js';
import type { Lookup } from './collections.js';
import type { ItemService } from './items.js';
import type { FileLinks } from './file-links.js';
import type { EpisodeRow, ItemAnalysisRow } from '../store/search-index.js';
import { normalizeLanguage } from '../media/languages.js';
import { fieldProblem } from './errors.js';
import { msg, render, type Lang } from '../messages/index.js';
import { lineSpeakers, type SpeakerTurn } from '../analysis/speakers.js';
import { chapterTitle } from '../analysis/phrases.js';
import { retoldSummaries } from '../analysis/summarize.js';

/** One episode of GET .../analysis (the SPEC leaves its fields open; vidx's choice). */
export interface EpisodeView {
  /** Index of the episode within the media, as in search results. */
  episode_id: number;
  start: number;
  end: number;
  summary: string;
  /** What to call the chapter: its summary, else what it is ("Voice memo, part 1", "Photo", the item's title), in the reader's language. */
  title: string;
  /** Signed thumbnail URL, null when there is no picture. */
  thumbnail_url: string | null;
  /** Transcript segments overlapping the episode, each with its speaker (null where none is known). */
  audio: { start: number; end: number; text: string; speaker: number | null }[];
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
  language: Lang | null;
  /** The languages of its subtitle tracks, the transcript's first; empty when its transcript is not from subtitles. */
  subtitle_languages: string[];
  /** The language of the lines in the episodes' `audio`: the transcript's, or the track asked for; null when not analysed. */
  transcript_language: string | null;
  /** The language of `video_summary` and the episodes' summaries: told from the track asked for, else the analysis's; null when not analysed. */
  summary_language: string | null;
  episodes: EpisodeView[];
  /** Who speaks when: anonymous speakers by number, with their words in the reader's language ("Speaker 1"). */
  speakers: SpeakerTurnView[];
  /** The pulled speaker pair that told the voices apart; null where the model-free default did. */
  speakers_model: string | null;
}

/** One speaker's turn as the API shows it. */
export interface SpeakerTurnView {
  speaker: number;
  /** The person's name where the collection groups voices and someone named them, else "Speaker 1". */
  label: string;
  /** The person this speaker is, where the collection groups voices. */
  person_id?: string;
  start: number;
  end: number;
}

/** What GET …/analysis may be asked besides the item: its visibility and the subtitle language to show. */
export interface AnalysisLookup extends Lookup {
  /** A language tag (`de`, `de-DE`, `ger`); absent: the transcript. */
  language?: string;
  /** The reader's language (Accept-Language), for the words vidx adds itself ("Voice memo, part 1"); absent: the item's. */
  reader?: Lang;
}

/**
 * An item's subtitle languages, the transcript's first. Items indexed before every track was kept
 * (null) had only their transcript's track: the language they were analysed in.
 */
function subtitleLanguages(a: ItemAnalysisRow | undefined): string[] {
  if (!a) return [];
  if (a.subtitle_languages) return JSON.parse(a.subtitle_languages) as string[];
  return a.transcript_source === 'sidecar' || a.transcript_source === 'embedded' ? [a.language] : [];
}

/**
 * The subtitle language to show instead of the transcript, or null for the transcript itself (no language
 * asked, or the transcript's). A language the item has no lines in is a 404 naming the ones it has.
 */
function otherLanguage(asked: string | undefined, primary: string | null, languages: string[]): string | null {
  if (asked === undefined) return null;
  // `und` (a track whose language is unknown) is a name of its own here, not "no language".
  const want = normalizeLanguage(asked) ?? asked.trim().toLowerCase();
  if (want === primary) return null;
  if (languages.includes(want)) return want;
  const reason = languages.length
    ? msg('language_has_lines', { asked, languages: languages.join(', ') })
    : primary
      ? msg('language_only_transcript', { asked, language: primary })
      : msg('language_no_transcript', { asked });
  throw fieldProblem('not_found', 'language', reason);
}

/**
 * Reads back what indexing stored for an item. An item without an analysis (not indexed by vidx) has the
 * SPEC's defaults: an empty summary, its duration or 0, no episodes. Another subtitle track's lines come
 * with summaries told from them, in that track's language.
 * @example
 * const a = await analysis.get(caller, 'matches', 'final-2024', { public: false });
 */
export class ItemAnalysisService {
  constructor(
    private readonly store: Repos<'search' | 'subtitles' | 'voices'>,
    private readonly items: ItemService,
    private readonly links: FileLinks,
    /** The episode faces of an item (PeopleService.episodeFaces); absent: always null. */
    private readonly faces?: (collectionPk: number, itemPk: number) => ((start: number, end: number) => EpisodeFace[]) | null,
  ) {}

  /** The turns as the API shows them: named by their person where the collection groups voices. */
  private turnViews(item: { pk: number; collection_pk: number }, turns: ReturnType<typeof speakerTurnsOf>, reader: Lang): SpeakerTurnView[] {
    const voices = this.store.voices.enabled(item.collection_pk) ? new Map(this.store.voices.tracksOfItem(item.pk).map((v) => [v.speaker, v])) : new Map();
    return turns.map((t) => {
      const v = voices.get(t.speaker);
      return { ...t, label: v?.name ?? render(msg('speaker_label', { n: t.speaker }), reader), ...(v?.person_id ? { person_id: v.person_id } : {}) };
    });
  }

  async get(caller: Caller, collectionId: string, mediaId: string, opts: AnalysisLookup = {}): Promise<AnalysisView> {
    const item = this.items.row(caller, collectionId, mediaId, opts);
    const repo = this.store.search;
    const analysis = repo.analysisOf(item.pk);
    const languages = subtitleLanguages(analysis);
    const primary = languages[0] ?? analysis?.language ?? null;
    const other = otherLanguage(opts.language, primary, languages);
    const episodes = repo.episodesOfItem(item.pk);
    const pks = episodes.map((e) => e.pk);
    const segments = repo.segmentsOf(pks);
    // Another language's lines stand where the transcript's would, each in the episode it belongs to.
    const audio = other === null ? segments.filter((s) => s.kind === 'audio') : this.store.subtitles.of(pks, other);
    const facesIn = this.faces?.(item.collection_pk, item.pk) ?? null;
    const analysed: Lang = analysis?.language === 'de' ? 'de' : 'en';
    const own = (e: EpisodeRow) => audio.filter((s) => s.episode_pk === e.pk);
    // Another track's lines get summaries told from them: a German page reading the German track reads German.
    const retold = other === null ? null : await retoldSummaries(
      episodes.map((e) => ({ lines: own(e).map((s) => s.text), screen: e.screen_text ? e.screen_text.split('\n') : [], tags: JSON.parse(e.tags) as string[] })),
      other === 'de' || other === 'en' ? other : analysed,
      [item.title ?? ''],
    );
    const summaryOf = (e: EpisodeRow, i: number) => retold?.episodes[i] ?? e.summary;
    // What vidx adds itself where a chapter has no words ("Voice memo, part 1") is said in the reader's language.
    const named = (e: EpisodeRow, index: number) =>
      chapterTitle({ summary: summaryOf(e, index), kind: item.type, title: item.title, index, count: episodes.length }, opts.reader ?? analysed);
    const turns = speakerTurnsOf(analysis?.speakers ?? null);
    // Another track's lines take the speaker of the turn that covers most of each.
    const speakerOf = other === null ? (s: { speaker?: number | null }) => s.speaker ?? null : byTurns(turns);
    return {
      video_summary: retold?.summary ?? analysis?.summary ?? '',
      video_duration: analysis?.duration ?? item.duration ?? 0,
      language: analysis?.language === 'de' ? 'de' : analysis ? 'en' : null,
      subtitle_languages: languages,
      transcript_language: other ?? primary,
      summary_language: analysis ? (other ?? primary ?? analysed) : null,
      speakers: this.turnViews(item, turns, opts.reader ?? analysed),
      speakers_model: analysis?.speakers_model ?? null,
      episodes: episodes.map((e, i) => this.episode(e, summaryOf(e, i), named(e, i), {
        audio: own(e).map((s) => ({ start: s.start, end: s.end, text: s.text, speaker: speakerOf(s) })),
        visual: segments.filter((s) => s.episode_pk === e.pk && s.kind === 'visual'),
        faces: facesIn,
      })),
    };
  }

  private episode(
    e: EpisodeRow,
    summary: string,
    title: string,
    own: { audio: EpisodeView['audio']; visual: { start: number; end: number; text: string }[]; faces: ((start: number, end: number) => EpisodeFace[]) | null },
  ): EpisodeView {
    return {
      episode_id: e.idx,
      start: e.start,
      end: e.end,
      summary,
      title,
      thumbnail_url: e.thumbnail ? this.links.file(e.thumbnail) : null,
      audio: own.audio,
      visual: own.visual.map((s) => ({ start: s.start, end: s.end, summary: s.text })),
      on_screen_text: e.screen_text ? e.screen_text.split('\n') : [],
      tags: JSON.parse(e.tags) as string[],
      faces: own.faces ? own.faces(e.start, e.end) : null,
    };
  }
}

/** The stored turns (item_analysis.speakers), none for items indexed before them. */
function speakerTurnsOf(json: string | null): SpeakerTurn[] {
  return json ? (JSON.parse(json) as SpeakerTurn[]) : [];
}

/** A line's speaker by the turns: the one covering most of it. */
function byTurns(turns: readonly SpeakerTurn[]): (line: { start: number; end: number }) => number | null {
  return (line) => lineSpeakers([line], turns)[0] ?? null;
}
