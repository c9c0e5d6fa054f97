import { z } from '@hono/zod-openapi';
import { LANGS } from '../../messages/index.js';
import type { AnalyzeResult as AnalyzeResultType } from '../../analysis/result.js';
import type { WarningsSaid } from '../../services/analysis/present.js';
import type { SameShape } from './explore.js';

/** SPEC 2.5 writes times inside segments as `{seconds}` objects (episode entries use plain numbers). */
const Seconds = z.object({ seconds: z.number().openapi({ description: 'Seconds from the start, to the millisecond' }) });

const Segment = z.object({ start: Seconds, end: Seconds, segment_id: z.number().int().openapi({ description: 'Position in the list, from 0' }) });

const SegmentText = z.object({ segment: Segment, text: z.string() });

const AnalyzeEpisode = z.object({
  episode_id: z.number().int().openapi({ description: 'Index of the episode within the media' }),
  start: Seconds,
  end: Seconds,
  audio: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).openapi({ description: 'Transcript segments overlapping the episode' }),
  visual: z.array(z.object({ start: z.number(), end: z.number(), summary: z.string() })).openapi({ description: 'What is seen, in stretches' }),
  faces: z.null().openapi({ description: 'Always null here: faces belong to a collection (see GET /collections/{id}/items/{media_id}/analysis)' }),
  summary: z.string(),
  thumbnail: z.string().nullable().openapi({ description: 'Signed link to the episode thumbnail (fresh on every read); null without a picture' }),
});

/**
 * The result of a completed POST /analyze task (SPEC 2.5), as GET /tasks/{task_id} shows it.
 * @example
 * taskKind('AnalyzeTask', '/analyze', AnalyzeTaskData, AnalyzeResult, 'A POST /analyze task')
 */
export const AnalyzeResult = z
  .object({
    video_duration: z.number().openapi({ description: 'Seconds' }),
    video_summary: z.string(),
    audio_summary: z.array(SegmentText).openapi({ description: 'One entry per transcript segment' }),
    visual_summary: z.array(SegmentText).openapi({ description: 'One entry per visual stretch (on-screen text and tags in words)' }),
    episodic_summary: z.array(AnalyzeEpisode).openapi({ description: 'Episodes in order, covering the media without gaps' }),
    media_type: z.enum(['video', 'audio', 'image']).openapi({ description: 'vidx extra' }),
    title: z.string().nullable().openapi({ description: 'vidx extra: the title given, else the one the source names' }),
    language: z.enum(LANGS).openapi({ description: 'vidx extra: the language the media was analysed in' }),
    transcript_source: z.enum(['sidecar', 'embedded', 'asr', 'none']).openapi({ description: 'vidx extra: where the transcript came from' }),
    subtitle_languages: z
      .array(z.string())
      .openapi({ description: "vidx extra: the languages of the media's subtitle tracks (base codes such as en, de, fr; und when unknown), the transcript's first; empty when the transcript is not from subtitles" }),
    subtitle_tracks: z
      .array(
        z.object({
          language: z.string().openapi({ description: 'Base language code (de, fr; und when neither the track nor its words tell)' }),
          source: z.enum(['sidecar', 'embedded']).openapi({ description: 'A subtitle file beside the media, or a stream inside it' }),
          lines: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).openapi({ description: 'The track\'s lines in time order, seconds' }),
        }),
      )
      .openapi({ description: 'vidx extra: the other subtitle tracks, one per language, in subtitle_languages order after the first (audio_summary is the first)' }),
    warnings: z.array(z.string()).openapi({ description: 'vidx extra: capabilities that were missing or failed, in words: German when Accept-Language prefers de, else English' }),
    reused: z.boolean().openapi({ description: 'vidx extra: true when an earlier analysis of the same content and inputs was reused instead of analysing again' }),
  })
  .openapi('AnalyzeResult', { description: 'Result of a completed POST /analyze task (SPEC 2.5)' });

// The stored result is the service's own object; the presenter turns thumbnails into links and warnings into words.
true satisfies SameShape<z.output<typeof AnalyzeResult>, WarningsSaid<AnalyzeResultType>>;
