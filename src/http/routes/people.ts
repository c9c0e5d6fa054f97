import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, jsonResponse as json, SECURITY } from '../schemas/common.js';
import { CollectionParams, ItemQuery } from '../schemas/collections.js';
import { zodText } from '../zod-messages.js';

const tags = ['people'];
const PersonId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, zodText('must_match', { pattern: '^[A-Za-z0-9_-]+$' }));
const PersonParams = CollectionParams.extend({ person_id: PersonId.openapi({ param: { name: 'person_id', in: 'path' } }) });
const Box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).openapi({ description: 'Fractions of the frame (0..1)' });
const Person = z
  .object({
    person_id: z.string(),
    name: z.string().nullable(),
    face_count: z.number().int().openapi({ description: 'Face tracks (one per shot a person is seen in)' }),
    media_count: z.number().int(),
    cover_url: z.string().nullable().openapi({ description: 'Signed link to the best face crop' }),
    voice_count: z.number().int().openapi({ description: 'Voices of theirs: one per recording they speak in (when the collection groups voices)' }),
    voice_seconds: z.number().openapi({ description: 'Seconds they speak across those recordings' }),
  })
  .openapi('Person');
const Moment = z
  .object({ media_id: z.string(), title: z.string().nullable(), track_id: z.number().int(), start: z.number(), end: z.number(), box: Box, score: z.number(), thumbnail_url: z.string().nullable() })
  .openapi('PersonMoment');
const Voice = z
  .object({
    voice_id: z.number().int().openapi({ description: 'The voice (to split it off, or give it to another person)' }),
    media_id: z.string(),
    title: z.string().nullable(),
    speaker: z.number().int().openapi({ description: "The speaker's number in the recording: its transcript lines carry it" }),
    seconds: z.number().openapi({ description: 'Seconds this voice speaks in the recording' }),
    sample: z.object({ start: z.number(), end: z.number() }).nullable().openapi({ description: 'A few seconds of the voice: its longest turn, from its start' }),
    sample_url: z.string().nullable().openapi({ description: 'Signed link to the recording with a media fragment (#t=start,end): a browser plays the sample alone' }),
  })
  .openapi('PersonVoice');
const Suggestion = z
  .object({
    voice_person_id: z.string().openapi({ description: 'An unnamed person known by voice alone' }),
    face_person_id: z.string().openapi({ description: 'A named person whose face is on screen while that voice speaks' }),
    name: z.string(),
    recordings: z.number().int().openapi({ description: 'Recordings where the face is on screen while the voice speaks (at least 2)' }),
    share: z.number().openapi({ description: "The share of the voice's speech in those recordings during which the face is on screen (at least 0.5)" }),
  })
  .openapi('PersonLinkSuggestion');
const body = <T extends z.ZodTypeAny>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });

const setFaces = createRoute({
  method: 'put', path: '/collections/{collection_id}/faces', operationId: 'setCollectionFaces', tags, security: SECURITY,
  summary: 'Turn faces on or off for a collection (vidx extra; off deletes every face and person of it)',
  request: { params: CollectionParams, ...body(z.object({ enabled: z.boolean() }).strict()) },
  responses: { 200: json(z.object({ collection_id: z.string(), faces: z.boolean() }), 'The setting'), ...errors(400, 401, 403, 404, 415, 422) },
});
const setVoices = createRoute({
  method: 'put', path: '/collections/{collection_id}/voices', operationId: 'setCollectionVoices', tags, security: SECURITY,
  summary: 'Turn voices on or off for a collection (vidx extra): on groups the speakers of its recordings into people as they are indexed; off deletes every voiceprint, and every person known by voice alone',
  request: { params: CollectionParams, ...body(z.object({ enabled: z.boolean() }).strict()) },
  responses: { 200: json(z.object({ collection_id: z.string(), voices: z.boolean() }), 'The setting'), ...errors(400, 401, 403, 404, 415, 422) },
});
const list = createRoute({
  method: 'get', path: '/collections/{collection_id}/people', operationId: 'listPeople', tags, security: SECURITY,
  summary: 'People found in a collection (vidx extra)',
  request: { params: CollectionParams, query: ItemQuery },
  responses: { 200: json(z.object({ collection_id: z.string(), faces: z.boolean(), unscanned_items: z.number().int().openapi({ description: 'Items whose analysis did not look for faces (indexed before faces were on, or without the face model): a re-index looks at them' }), voices: z.boolean().openapi({ description: 'Whether the collection groups voices (PUT …/voices)' }), people: z.array(Person), suggestions: z.array(Suggestion).openapi({ description: 'Voices that may be a named face: link one by merging its voice_person_id into its face_person_id (POST …/people/{face_person_id}/merge). vidx never links them itself' }) }), 'People, most seen or heard first'), ...errors(401, 404, 422) },
});
const rename = createRoute({
  method: 'put', path: '/collections/{collection_id}/people/{person_id}', operationId: 'renamePerson', tags, security: SECURITY,
  summary: 'Name a person (null or empty clears the name)',
  request: { params: PersonParams, ...body(z.object({ name: z.string().max(200).nullable() }).strict()) },
  responses: { 200: json(Person, 'The person'), ...errors(400, 401, 403, 404, 415, 422) },
});
const merge = createRoute({
  method: 'post', path: '/collections/{collection_id}/people/{person_id}/merge', operationId: 'mergePerson', tags, security: SECURITY,
  summary: 'Merge another person into this one (their faces and voices move here; the other person is removed)',
  request: { params: PersonParams, ...body(z.object({ person_id: PersonId }).strict()) },
  responses: { 200: json(Person, 'The merged person'), ...errors(400, 401, 403, 404, 415, 422) },
});
const split = createRoute({
  method: 'post', path: '/collections/{collection_id}/people/{person_id}/split', operationId: 'splitPerson', tags, security: SECURITY,
  summary: 'Move one wrongly grouped face track (track_id from …/moments) or voice (voice_id from …/voices) to a new person',
  request: { params: PersonParams, ...body(z.object({ track_id: z.number().int().positive().optional(), voice_id: z.number().int().positive().optional() }).strict().openapi({ description: 'Exactly one of track_id and voice_id' })) },
  responses: { 200: json(Person, 'The new person'), ...errors(400, 401, 403, 404, 415, 422) },
});
const remove = createRoute({
  method: 'delete', path: '/collections/{collection_id}/people/{person_id}', operationId: 'deletePerson', tags, security: SECURITY,
  summary: 'Delete a person with all their face data (tracks, vectors, crops)',
  request: { params: PersonParams },
  responses: { 200: json(z.object({ collection_id: z.string(), person_id: z.string() }), 'What was removed'), ...errors(401, 403, 404, 422) },
});
const voices = createRoute({
  method: 'get', path: '/collections/{collection_id}/people/{person_id}/voices', operationId: 'listPersonVoices', tags, security: SECURITY,
  summary: "A person's voices: one per recording they speak in, each with a sample to hear",
  request: { params: PersonParams, query: ItemQuery },
  responses: { 200: json(z.object({ collection_id: z.string(), person_id: z.string(), voices: z.array(Voice) }), 'Voices by media'), ...errors(401, 404, 422) },
});
const reassign = createRoute({
  method: 'post', path: '/collections/{collection_id}/people/{person_id}/voices', operationId: 'reassignVoices', tags, security: SECURITY,
  summary: 'Give these voices (voice_id from …/voices of any person) to this person, in one call; unknown ids are a 422 naming them and nothing moves',
  request: { params: PersonParams, ...body(z.object({ voice_ids: z.array(z.number().int().positive()).min(1).max(1000) }).strict()) },
  responses: { 200: json(Person, 'The person'), ...errors(400, 401, 403, 404, 415, 422) },
});
const moments = createRoute({
  method: 'get', path: '/collections/{collection_id}/people/{person_id}/moments', operationId: 'listPersonMoments', tags, security: SECURITY,
  summary: "A person's moments across the collection",
  request: { params: PersonParams, query: ItemQuery },
  responses: { 200: json(z.object({ person: Person, moments: z.array(Moment) }), 'Moments by media, in time order'), ...errors(401, 404, 422) },
});

/**
 * People endpoints (vidx extras, issue 17).
 * @example
 * peopleRoutes(app, deps);
 */
export function peopleRoutes(app: App, deps: HttpDeps): void {
  const svc = deps.people;
  app.openapi(setFaces, (c) => c.json(svc.faces(c.get('caller'), c.req.valid('param').collection_id, c.req.valid('json').enabled), 200));
  app.openapi(setVoices, (c) => c.json(deps.voices.setting(c.get('caller'), c.req.valid('param').collection_id, c.req.valid('json').enabled), 200));
  app.openapi(voices, (c) => {
    const p = c.req.valid('param');
    return c.json(deps.voices.ofPerson(c.get('caller'), p.collection_id, p.person_id, { public: c.req.valid('query').is_public }), 200);
  });
  app.openapi(reassign, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.reassignVoices(c.get('caller'), p.collection_id, p.person_id, c.req.valid('json').voice_ids), 200);
  });
  app.openapi(list, (c) => c.json(svc.list(c.get('caller'), c.req.valid('param').collection_id, { public: c.req.valid('query').is_public }), 200));
  app.openapi(rename, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.rename(c.get('caller'), p.collection_id, p.person_id, c.req.valid('json').name), 200);
  });
  app.openapi(merge, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.merge(c.get('caller'), p.collection_id, p.person_id, c.req.valid('json').person_id), 200);
  });
  app.openapi(split, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.split(c.get('caller'), p.collection_id, p.person_id, c.req.valid('json')), 200);
  });
  app.openapi(remove, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.delete(c.get('caller'), p.collection_id, p.person_id), 200);
  });
  app.openapi(moments, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.moments(c.get('caller'), p.collection_id, p.person_id, { public: c.req.valid('query').is_public }), 200);
  });
}
