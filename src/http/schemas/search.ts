import { z } from '@hono/zod-openapi';
import { Place } from './places.js';

const Span = { start: z.number(), end: z.number() };

/**
 * One result object of POST /search (SPEC 2.7); clusters reuse it.
 * @example
 * z.object({ results: z.array(SearchResult) })
 */
export const SearchResult = z
  .object({
    audio: z
      .array(z.object({ ...Span, text: z.string() }))
      .openapi({ description: "The moment's transcript segments: the episode's, at most 30, from a few before start_time on; each at most 500 characters" }),
    computer_vision: z
      .array(z.object({ ...Span, summary: z.string() }))
      .openapi({ description: "The moment's visual entries: the episode's, at most 30, from a few before start_time on" }),
    content: z.string().openapi({ description: 'The passage that matched, else the episode summary' }),
    episode_id: z.number().int().openapi({ description: 'Index of the episode within its media' }),
    image_url: z.string().openapi({ description: 'Signed thumbnail URL; empty when the media has no picture' }),
    media_id: z.string(),
    score: z.number().min(0).max(1).openapi({ description: 'Relevance 0..1 (1: first in every ranking consulted); comparable within one response' }),
    src: z.string().openapi({ description: 'Source URL, else a signed link to the stored media file, with #t=<start_time>; empty when neither exists' }),
    start_time: z.number().openapi({ description: 'Seconds: start of the best matching segment inside the episode' }),
    media_type: z.enum(['video', 'audio', 'image']).openapi({ description: "vidx extra: the item's type" }),
    title: z.string().nullable().openapi({ description: "vidx extra: the item's title" }),
    captured_at: z.string().nullable().openapi({ description: "vidx extra: the item's date (ISO 8601); null when unknown. captured_at_source says whether it is a recording date" }),
    captured_at_source: z.enum(['metadata', 'filename', 'file']).nullable().openapi({ description: "vidx extra: `metadata` = a recording date the file states; `filename` = a recording date the file's name states (read in the server's time zone); `file` = only a file-system date" }),
    place: Place.nullable().openapi({ description: 'vidx extra: where the item was recorded, named offline from its GPS; null without GPS' }),
    people: z
      .array(z.object({ person_id: z.string(), name: z.string().nullable() }))
      .optional()
      .openapi({ description: 'vidx extra: the people seen in the episode (GET /collections/{id}/people); present only when the collection has faces on' }),
    speaker: z
      .object({ person_id: z.string(), name: z.string().nullable() })
      .optional()
      .openapi({ description: 'vidx extra: who says the line at start_time (GET /collections/{id}/people); present only when the collection groups voices and the line has a known speaker' }),
    copies: z
      .array(z.object({ media_id: z.string(), title: z.string().nullable(), start_time: z.number() }))
      .optional()
      .openapi({
        description:
          'vidx extra: the same moment in other copies of this video or photo (GET /collections/{id}/duplicates) that matched too, each with its own time. The result itself is the kept copy (the original) where it matched; present only when copies matched',
      }),
  })
  .openapi('SearchResult');

/**
 * A notice of POST /search (vidx extra): something the search could not look for, and how to close the gap.
 * @example
 * z.object({ notices: z.array(SearchNotice) })
 */
export const SearchNotice = z
  .object({
    code: z.enum(['image_text_missing', 'speech_missing']).openapi({
      description:
        '`image_text_missing`: no image–text model is installed, so what is only seen (not said or written) cannot be found by words. `speech_missing`: searched items hold speech that was never transcribed (no subtitles and no speech model when they were indexed)',
    }),
    message: z.string().openapi({ description: 'What it means, which items (`speech_missing`) and which model to install, in German when search_language or Accept-Language asks for it' }),
    items: z
      .array(z.object({ media_id: z.string(), title: z.string().nullable() }))
      .optional()
      .openapi({ description: '`speech_missing` only: up to three of the items it means, by title, for a client that names them in its own words' }),
    item_count: z.number().int().optional().openapi({ description: '`speech_missing` only: how many items it means in all' }),
  })
  .openapi('SearchNotice');

/**
 * A typo correction of POST /search (vidx extra): a query word that matched nothing, and the word searched instead.
 * @example
 * z.object({ corrected: z.array(SearchCorrection) })
 */
export const SearchCorrection = z
  .object({
    from: z.string().openapi({ description: 'The query word as given' }),
    to: z.string().openapi({ description: "The collection's word searched instead" }),
  })
  .openapi('SearchCorrection');

/**
 * What POST /search read in the query's words besides words (vidx extra): a date and a place of the collection, searched as filters.
 * @example
 * z.object({ understood: SearchUnderstood.optional() })
 */
export const SearchUnderstood = z
  .object({
    place: z.string().nullable().openapi({ description: "A place the collection's items were recorded at, as the query names it (\"Lisbon\", \"Wien\"); only items recorded there (as `near` does); null when none" }),
    from: z.string().nullable().openapi({ description: 'The first day of the date the query says (YYYY-MM-DD, on the server\'s calendar and time zone); only items captured from then on. Null when none' }),
    to: z.string().nullable().openapi({ description: 'The last day of that date, inclusive (YYYY-MM-DD); null when none' }),
    words: z.string().openapi({ description: "The query's words left, searched as text; empty when none is left (then every item the filters keep is listed, oldest first)" }),
  })
  .openapi('SearchUnderstood');

/**
 * The answer of POST /search: SPEC 2.7 results, and the vidx extras notices, corrected, searched_query and original_query.
 * @example
 * responses: { 200: { content: { 'application/json': { schema: SearchResponse } } } }
 */
export const SearchResponse = z
  .object({
    results: z.array(SearchResult),
    notices: z.array(SearchNotice).openapi({ description: 'vidx extra: what this search could not look for (always present; empty when nothing is missing). Only for queries with words' }),
    corrected: z.array(SearchCorrection).openapi({ description: 'vidx extra: query words that matched nothing in the collection, are no English or German word, and were read as its nearest words because that found more (always present; empty when none was corrected)' }),
    searched_query: z.string().nullable().openapi({ description: 'vidx extra: the query as searched, its corrected words replaced ("Showing results for …"); null when no word was corrected' }),
    original_query: z
      .string()
      .nullable()
      .openapi({ description: 'vidx extra: the query as given, when words were corrected ("Search for … instead": send it again with correct_typos false); null when no word was corrected' }),
    understood: SearchUnderstood.optional().openapi({
      description:
        'vidx extra: a date (English or German: "2019", "May 2024", "last summer", "Weihnachten 2022") or a place of the collection ("Lisbon") read in the query and searched as a filter, with the words left; absent when the query says neither or `understand` is false. Relative dates ("last summer") count from the server\'s clock and time zone. Moments that hold the words as typed outside these filters (someone says "2019") follow the understood results',
    }),
  })
  .openapi('SearchResponse');
