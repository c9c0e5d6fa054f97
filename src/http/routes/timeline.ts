import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { CollectionParams, ItemQuery, MediaItem } from '../schemas/collections.js';
import { Place } from '../schemas/places.js';
import { answerLanguage } from '../german.js';
import { withPlaceIn } from '../../services/places.js';
import type { ItemView } from '../../services/items.js';

const tags = ['time'];
const json = jsonResponse;

const Counts = z.object({ video: z.number().int(), audio: z.number().int(), image: z.number().int() });
const Event = z
  .object({
    event_id: z.string(),
    title: z.string().openapi({ description: 'Its name where someone gave one, else made from its place and dates in the reader\'s language (Accept-Language): "Lisbon, 3–5 May 2024" / "Lissabon, 3.–5. Mai 2024", "10 June 2023" without a place', example: 'Lisbon, 3–5 May 2024' }),
    name: z.string().nullable().openapi({ description: 'The name someone gave it (PATCH); null while its title is made' }),
    start: z.string().openapi({ description: 'Its first item\'s recording time (ISO 8601)' }),
    end: z.string().openapi({ description: 'Its last item\'s recording time' }),
    cover: MediaItem.nullable().openapi({ description: 'The item that best shows it: a photo or video nearest its middle' }),
    counts: Counts.openapi({ description: 'Its items by type' }),
    places: z.array(Place).openapi({ description: 'Its places (cities), most items first' }),
  })
  .openapi('Event');
const EventParams = CollectionParams.extend({ event_id: z.string().min(1).max(100).openapi({ param: { name: 'event_id', in: 'path' }, example: 'event-0193a6f0-…' }) });
const Paging = ItemQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).optional().default(20).openapi({ type: 'integer', default: 20, minimum: 1, maximum: 100 }),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional().default(0).openapi({ type: 'integer', default: 0, description: 'Events to skip (the previous page\'s next_offset)' }),
});
/** A year's or month's first and last instant, as the items list's filters take them. */
const Span = {
  from: z.string().openapi({ description: "Its first instant in the server's time zone (ISO 8601): GET …/items?captured_after= lists its items" }),
  to: z.string().openapi({ description: 'Its last instant: captured_before' }),
};
const Day = z.string().openapi({ description: 'A calendar day, YYYY-MM-DD', example: '2026-07-14' });

const list = createRoute({
  method: 'get', path: '/collections/{collection_id}/events', operationId: 'listEvents', tags, security: SECURITY,
  summary: 'Events: items recorded close together in time and place (a day; a trip away from the usual places), newest first',
  request: { params: CollectionParams, query: Paging },
  responses: {
    200: json(z.object({ events: z.array(Event), total: z.number().int(), next_offset: z.number().int().nullable().openapi({ description: 'Pass as offset for the next page; null on the last' }) }), 'A page of events'),
    ...errors(401, 404, 422),
  },
});
const read = createRoute({
  method: 'get', path: '/collections/{collection_id}/events/{event_id}', operationId: 'getEvent', tags, security: SECURITY,
  summary: 'An event with its items, oldest first',
  request: { params: EventParams, query: ItemQuery },
  responses: { 200: json(Event.extend({ items: z.array(MediaItem) }), 'The event'), ...errors(401, 404, 422) },
});
const rename = createRoute({
  method: 'patch', path: '/collections/{collection_id}/events/{event_id}', operationId: 'renameEvent', tags, security: SECURITY,
  summary: 'Name an event (null or empty: its made title again); the name stays when its items are grouped again or re-indexed',
  request: { params: EventParams, body: { required: true, content: { 'application/json': { schema: z.object({ name: z.string().max(200).nullable() }).strict() } } } },
  responses: { 200: json(Event, 'The event'), ...errors(400, 401, 403, 404, 422) },
});
const onThisDay = createRoute({
  method: 'get', path: '/collections/{collection_id}/on-this-day', operationId: 'onThisDay', tags, security: SECURITY,
  summary: 'What was recorded on this calendar day in earlier years, grouped by year, newest first',
  request: { params: CollectionParams, query: ItemQuery.extend({ date: Day.optional().openapi({ description: "The day (default today, by the server's clock and time zone); 422 naming `date` when it is no calendar date" }) }) },
  responses: { 200: json(z.object({ date: Day, years: z.array(z.object({ year: z.number().int(), items: z.array(MediaItem) })) }), 'Earlier years of the day'), ...errors(401, 404, 422) },
});
const timeline = createRoute({
  method: 'get', path: '/collections/{collection_id}/timeline', operationId: 'getTimeline', tags, security: SECURITY,
  summary: "Items by year and month (the server's time zone), oldest first; items without a recording date counted apart",
  request: { params: CollectionParams, query: ItemQuery },
  responses: {
    200: json(
      z.object({
        years: z.array(z.object({
          year: z.number().int(), items: z.number().int(), ...Span,
          months: z.array(z.object({ month: z.number().int().min(1).max(12), items: z.number().int(), by_type: Counts, ...Span })),
        })),
        undated: z.number().int().openapi({ description: "Items without a recording date (none, or only a file's own date, which says when a copy was made)" }),
      }),
      'The timeline',
    ),
    ...errors(401, 404, 422),
  },
});

/**
 * The archive by time (issue 47): events, on this day, the timeline.
 * @example
 * timelineRoutes(app, deps);
 */
export function timelineRoutes(app: App, deps: HttpDeps): void {
  app.openapi(list, (c) => {
    const q = c.req.valid('query');
    const lang = answerLanguage(c);
    const { events, total } = deps.timeline.events(c.get('caller'), c.req.valid('param').collection_id, { offset: q.offset, limit: q.limit, public: q.is_public }, lang);
    const next = q.offset + events.length < total ? q.offset + events.length : null;
    return c.json({ events: events.map((e) => ({ ...e, cover: e.cover && placed(e.cover, lang) })), total, next_offset: next }, 200);
  });
  app.openapi(read, (c) => {
    const p = c.req.valid('param');
    const lang = answerLanguage(c);
    const e = deps.timeline.event(c.get('caller'), p.collection_id, p.event_id, lang, { public: c.req.valid('query').is_public });
    return c.json({ ...e, cover: e.cover && placed(e.cover, lang), items: e.items.map((i) => placed(i, lang)) }, 200);
  });
  app.openapi(rename, (c) => {
    const p = c.req.valid('param');
    const lang = answerLanguage(c);
    const e = deps.timeline.rename(c.get('caller'), p.collection_id, p.event_id, c.req.valid('json').name, lang);
    return c.json({ ...e, cover: e.cover && placed(e.cover, lang) }, 200);
  });
  app.openapi(onThisDay, (c) => {
    const q = c.req.valid('query');
    const lang = answerLanguage(c);
    const day = deps.timeline.onThisDay(c.get('caller'), c.req.valid('param').collection_id, q.date, { public: q.is_public });
    return c.json({ ...day, years: day.years.map((y) => ({ ...y, items: y.items.map((i) => placed(i, lang)) })) }, 200);
  });
  app.openapi(timeline, (c) => c.json(deps.timeline.timeline(c.get('caller'), c.req.valid('param').collection_id, { public: c.req.valid('query').is_public }), 200));
}

const placed = (item: ItemView, lang: ReturnType<typeof answerLanguage>) => withPlaceIn(item, lang);
