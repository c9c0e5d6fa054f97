import { createRoute, z } from '@hono/zod-openapi';
import { LANGS } from '../../messages/index.js';
import type { App, HttpDeps } from '../env.js';
import { errors, SECURITY } from '../schemas/common.js';
import { AnalysisQuery, ItemParams } from '../schemas/collections.js';
import { readerLanguage } from '../german.js';

const Span = { start: z.number(), end: z.number() };

const Episode = z
  .object({
    episode_id: z.number().int().openapi({ description: 'Index of the episode within the media (as in search results)' }),
    ...Span,
    summary: z.string(),
    title: z
      .string()
      .openapi({ description: 'What to call the chapter: its summary when it has words, else what it is ("Voice memo, part 1", "Photo", or the item\'s title with the part), those words in the caller\'s language (Accept-Language naming en or de first), else in the language the item was analysed in; never a bare time' }),
    thumbnail_url: z.string().nullable().openapi({ description: 'Signed thumbnail URL; null without a picture' }),
    audio: z
      .array(z.object({ ...Span, text: z.string(), speaker: z.number().int().nullable().openapi({ description: 'vidx extra: who says it, the number of a turn in `speakers`; null where no turn covers it' }) }))
      .openapi({ description: 'Transcript segments overlapping the episode' }),
    visual: z.array(z.object({ ...Span, summary: z.string() })).openapi({ description: 'What is seen, in stretches' }),
    on_screen_text: z.array(z.string()).openapi({ description: 'Distinct on-screen text lines' }),
    tags: z.array(z.string()).openapi({ description: 'Distinct visual tags (empty without the image–text model)' }),
    faces: z
      .array(
        z.object({
          person_id: z.string().nullable().openapi({ description: 'The person (GET /collections/{id}/people); null when faces were found but not grouped (no face embedder)' }),
          ...Span,
          box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).openapi({ description: 'Where the face is on its best frame, as fractions of the frame (0..1)' }),
          score: z.number().openapi({ description: 'Detector confidence 0..1' }),
          thumbnail: z.string().nullable().openapi({ description: 'Signed link to the face crop' }),
        }),
      )
      .nullable()
      .openapi({ description: "Faces seen in the episode, one entry per person per shot; null when the collection's faces setting is off (the default)" }),
  })
  .openapi('AnalysisEpisode');

const Analysis = z
  .object({
    video_summary: z.string().openapi({ description: 'Empty when the item was not analysed' }),
    video_duration: z.number().openapi({ description: 'Seconds; 0 when unknown' }),
    language: z.enum(LANGS).nullable().openapi({ description: "The language the item was analysed in, as POST /analyze returns it; null when the item was not analysed" }),
    subtitle_languages: z
      .array(z.string())
      .openapi({ description: "vidx extra: the languages of the item's subtitle tracks (base codes: en, de, fr; und when unknown), the transcript's first; each can be asked for with `?language=`. Empty when the transcript is speech recognition or none", example: ['en', 'de'] }),
    transcript_language: z
      .string()
      .nullable()
      .openapi({ description: "vidx extra: the language of the lines in the episodes' `audio`: the transcript's, or the one `?language=` asked for; null when the item was not analysed" }),
    summary_language: z
      .string()
      .nullable()
      .openapi({ description: "vidx extra: the language of `video_summary` and the episodes' `summary`: with `?language=`, they are told from that track's lines (ranked lexically), else they are the analysis's, in its transcript's language; null when the item was not analysed" }),
    episodes: z.array(Episode).openapi({ description: 'Episodes in order, covering the media without gaps' }),
    speakers: z
      .array(z.object({ speaker: z.number().int(), label: z.string().openapi({ example: 'Speaker 1', description: "The person's name where the collection groups voices and the person is named, else Speaker N" }), person_id: z.string().optional().openapi({ description: 'The person this speaker is (GET /collections/{id}/people), where the collection groups voices' }), ...Span }))
      .openapi({
        description:
          "vidx extra: who speaks when, in turns. Speakers are anonymous numbers within this item, 1 for the first to speak, labelled in the caller's language (\"Speaker 1\", \"Sprecher 1\"), or by the person's name where the collection groups voices (PUT …/voices) and the person is named. Empty for photos, recordings without speech and items indexed before speakers",
      }),
    speakers_model: z
      .string()
      .nullable()
      .openapi({ description: 'vidx extra: the pulled speaker models (segmentation+embedder, or the embedder alone) that told the voices apart; null where the model-free default did', example: 'pyannote-segmentation-3.0+wespeaker-resnet34-lm' }),
  })
  .openapi('ItemAnalysis');

const read = createRoute({
  method: 'get', path: '/collections/{collection_id}/items/{media_id}/analysis', operationId: 'getItemAnalysis', tags: ['items'], security: SECURITY,
  summary: 'The stored analysis of an indexed media item (SPEC 2.6)',
  request: { params: ItemParams, query: AnalysisQuery },
  responses: { 200: { description: 'The analysis', content: { 'application/json': { schema: Analysis } } }, ...errors(401, 404, 422) },
});

/**
 * GET /collections/{collection_id}/items/{media_id}/analysis: summary, duration and episodes of an item,
 * visible like the item itself (is_public=true for another owner's public collection); `language` shows
 * another subtitle track's lines in the episodes.
 * @example
 * analysisRoutes(app, deps);
 */
export function analysisRoutes(app: App, deps: HttpDeps): void {
  app.openapi(read, async (c) => {
    const p = c.req.valid('param');
    const q = c.req.valid('query');
    const reader = readerLanguage(c.req.header('accept-language'));
    return c.json(await deps.analysis.get(c.get('caller'), p.collection_id, p.media_id, { public: q.is_public, ...(q.language ? { language: q.language } : {}), ...(reader ? { reader } : {}) }), 200);
  });
}
