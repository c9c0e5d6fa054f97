import { z } from '@hono/zod-openapi';

const Span = { start: z.number(), end: z.number() };

/**
 * One result object of POST /search (SPEC 2.7); clusters reuse it.
 * @example
 * z.object({ results: z.array(SearchResult) })
 */
export const SearchResult = z
  .object({
    audio: z.array(z.object({ ...Span, text: z.string() })).openapi({ description: 'The transcript segments of the episode' }),
    computer_vision: z.array(z.object({ ...Span, summary: z.string() })).openapi({ description: 'The visual entries of the episode' }),
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
    captured_at_source: z.enum(['metadata', 'file']).nullable().openapi({ description: 'vidx extra: `metadata` = a recording date the file states; `file` = only a file-system date' }),
    people: z
      .array(z.object({ person_id: z.string(), name: z.string().nullable() }))
      .optional()
      .openapi({ description: 'vidx extra: the people seen in the episode (GET /collections/{id}/people); present only when the collection has faces on' }),
  })
  .openapi('SearchResult');
