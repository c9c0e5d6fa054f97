import { z } from 'zod';
import { msg, render, LANGS } from '../../messages/index.js';
import { clock } from '../../tools/clock.js';
import { defineTool } from '../tool.js';
import { collection, itemParams, itemUri, mediaId } from './fields.js';

/** A moment as search answers it. */
const moment = z.object({
  media_id: z.string(),
  title: z.string().nullable(),
  media_type: z.enum(['video', 'audio', 'image']).nullable(),
  captured_at: z.string().nullable().describe('When it was recorded, ISO 8601'),
  // The API's place (city, district, region, country, country_code); loose so a field it adds does not break the answer.
  place: z.looseObject({ city: z.string(), country: z.string() }).nullable(),
  start_time: z.number().describe('Seconds'),
  time: z.string().describe('m:ss'),
  episode_id: z.number(),
  score: z.number(),
  passage: z.string().describe('What matched'),
  link: z.string().nullable().describe('Plays from the moment'),
  resource: z.string().describe('The item as an MCP resource (its transcript)'),
  speaker: z.object({ person_id: z.string(), name: z.string().nullable() }).optional().describe('Who says the line at start_time (when the collection groups voices)'),
  copies: z
    .array(z.object({ media_id: z.string(), start_time: z.number() }))
    .optional()
    .describe('The same moment in copies of this item (a trim, a re-encode): cite the moment once, as this item'),
});

/**
 * `search`: POST /search, answered as moments an agent can cite and play. A picture goes as `image_path`
 * over both transports: the server reads it under its own file rule (inside the media roots, never its data
 * dir), so this process never opens a file, wherever it runs.
 * @example
 * await client.callTool({ name: 'search', arguments: { query: 'penalty shot', collection: 'demo', limit: 5 } });
 * await client.callTool({ name: 'search', arguments: { image_path: '/home/me/Pictures/shot.jpg', collection: 'demo' } });
 */
export const search = defineTool({
  name: 'search',
  title: 'Search videos',
  description:
    'Finds the moments in one collection where something is said or shown on screen (spoken words, on-screen text, visual tags, titles; German compounds and word parts too), ' +
    'or that look like a picture (image_path: a screenshot, photo or frame on the vidx machine) or like a moment of the collection (like: "more like this"). ' +
    'Returns the best moments first, each with media_id, title, start_time (seconds), the passage that matched and a link that plays from that moment. ' +
    'Use it to answer "where/when in my videos …" and "where is this frame from" questions; follow up with get_transcript or get_analysis for context around a moment. ' +
    'notices say what could not be searched (no image–text model: things only seen; speech never transcribed): tell the user. ' +
    'Dates and places in the query are read as filters: "Lisbon 2019", "Wien im Sommer 2023", "last summer", "Weihnachten 2022" (English or German; a place only where the collection has items); understood says what was read (place, from, to, words) and moments that hold the words as typed follow. Tell the user what was understood; search again with understand: false to take them as words. ' +
    'When misspelt words were read as others, correction says so ("Showing results for X. Search for Y instead") and corrected lists them: tell the user, and search again with correct_typos: false when they meant the words as typed.',
  input: {
    query: z.string().min(1).max(1000).optional().describe('Plain words or a "quoted phrase"; no operators needed. Give query, image_path, like or speaker (any together are combined)'),
    image_path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("Absolute path of a picture (JPEG, PNG, WebP, AVIF, HEIF, TIFF, GIF; at most 32 MiB) on the vidx server's machine, inside its VIDX_MEDIA_ROOTS: the server reads it and finds the moments that look like it (copies, screenshots, rescaled frames; by meaning too when the image-text model is installed)"),
    like: z
      .object({ media_id: mediaId, start_time: z.number().min(0).describe('Seconds into that item, e.g. a start_time from an earlier search') })
      .strict()
      .optional()
      .describe('A moment of this collection: moments that look like it (its copies, the same scene elsewhere), never the moment itself'),
    collection,
    limit: z.number().int().min(1).max(100).optional().describe('Moments wanted, 1..100 (default 10)'),
    media_id: mediaId.optional().describe('Search inside this one video only'),
    threshold: z.number().min(0).max(1).optional().describe('Drop moments scoring below this, 0..1 (default 0)'),
    media_type: z.enum(['video', 'audio', 'image']).optional().describe('Only videos, only audio (voice memos, podcasts) or only photos'),
    captured_after: z.string().max(40).optional().describe('Only items recorded at or after this time, ISO 8601 (e.g. 2023-06-01T00:00:00Z)'),
    captured_before: z.string().max(40).optional().describe('Only items recorded before this time, ISO 8601'),
    folder_id: z.string().min(1).max(100).optional().describe('Only items from this folder (add_folder returns its folder_id)'),
    speaker: z.string().min(1).max(200).optional().describe('Only what this person says: a name ("Dad") or a person_id of the collection\'s people. Needs voices on for the collection; alone (no query) it finds everything they say'),
    near: z.string().min(1).max(200).optional().describe('Only items recorded near a place: a city (Lisbon, Lissabon), a region (Bavaria), a country (Portugal, Deutschland) or "latitude,longitude"; items without GPS are left out'),
    near_km: z.number().gt(0).max(2000).optional().describe('Radius around a city or point in km (default 25)'),
    language: z.enum(LANGS).optional().describe('Language of the notices and the correction: en (default) or de'),
    correct_typos: z.boolean().optional().describe('false: search the words exactly as given, never as the collection\'s nearest words (default true: a word that is no English or German word and matches nothing may be read as a near word)'),
    understand: z.boolean().optional().describe('false: take dates and place names in the query as words, never as filters (default true)'),
  },
  output: {
    collection: z.string(),
    query: z.string().nullable(),
    image_path: z.string().optional(),
    like: z.object({ media_id: z.string(), start_time: z.number() }).optional(),
    moments: z.array(moment).describe('Best first'),
    notices: z.array(z.object({ code: z.string(), message: z.string() })).describe('What could not be searched: tell the user'),
    corrected: z.array(z.object({ from: z.string(), to: z.string() })).describe('Misspelt words read as others'),
    correction: z.string().optional().describe('When words were corrected: "Showing results for X. Search for Y instead: …" (tell the user)'),
    understood: z
      .object({ place: z.string().nullable(), from: z.string().nullable(), to: z.string().nullable(), words: z.string() })
      .optional()
      .describe("What the query's words were read as: a place of the collection, a day range (YYYY-MM-DD, inclusive, the server's time zone) and the words left; absent when nothing was"),
    note: z.string().optional(),
  },
  annotations: { readOnlyHint: true },
  async run({ language, ...args }, { api }) {
    const { results, notices, corrected, searched_query, original_query, understood } = await api.POST('/search', { body: { ...args, ...(language ? { search_language: language } : {}) } });
    const titles = new Map<string, string | null>();
    await Promise.all(
      [...new Set(results.map((r) => r.media_id))].map(async (id) => {
        // An item deleted since the search answered has no title any more; the moment still stands.
        const item = await api.GET('/collections/{collection_id}/items/{media_id}', { params: itemParams(args.collection, id) }).catch(() => null);
        titles.set(id, item?.title ?? null);
      }),
    );
    return {
      collection: args.collection,
      query: args.query ?? null,
      ...(args.image_path !== undefined ? { image_path: args.image_path } : {}),
      ...(args.like ? { like: args.like } : {}),
      moments: results.map((r) => ({
        media_id: r.media_id,
        title: titles.get(r.media_id) ?? null,
        media_type: r.media_type ?? null,
        captured_at: r.captured_at ?? null,
        place: r.place ?? null,
        start_time: r.start_time,
        time: clock(r.start_time),
        episode_id: r.episode_id,
        score: Math.round(r.score * 1000) / 1000,
        passage: r.content,
        link: r.src || null,
        resource: itemUri(args.collection, r.media_id),
        ...(r.speaker ? { speaker: r.speaker } : {}),
        ...(r.copies?.length ? { copies: r.copies.map((c) => ({ media_id: c.media_id, start_time: c.start_time })) } : {}),
      })),
      // What could not be searched (a model not installed) and which words were read as others: an agent
      // should pass these on rather than conclude that nothing is there.
      notices,
      corrected,
      ...(understood ? { understood } : {}),
      ...(searched_query && original_query ? { correction: render(msg('search_corrected_tool', { searched: searched_query, original: original_query }), language ?? 'en') } : {}),
      ...(results.length ? {} : { note: args.query ? 'Nothing matched. Try other or fewer words, or see what the collection is about with suggest.' : 'Nothing looks alike enough.' }),
    };
  },
});
