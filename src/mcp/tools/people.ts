import { z } from 'zod';
import type { Schemas } from '../../client/index.js';
import { defineTool, toolError } from '../tool.js';
import { collection } from './fields.js';
import { fold } from '../../tools/fold.js';

type Person = Schemas['Person'];

/** A person asked for by id, else by name (case and accents aside), among a collection's people. */
function findPerson(people: Person[], who: string): Person | undefined {
  const wanted = fold(who.trim());
  return people.find((p) => p.person_id === who) ?? people.find((p) => p.name !== null && fold(p.name.trim()) === wanted);
}

/**
 * `people`: the people vidx grouped from the faces in a collection (GET /collections/{id}/people), or one
 * person's moments (…/people/{person_id}/moments) when `person` names one by id or name.
 * @example
 * await client.callTool({ name: 'people', arguments: { collection: 'family', person: 'Grandma' } });
 */
export const people = defineTool({
  name: 'people',
  title: 'People in a collection',
  description:
    'Lists the people seen or heard in a collection (faces and voices grouped into people on this machine, when the collection has faces or voices turned on), ' +
    'with their names where someone named them, or, given `person` (an id from this list or a name), the moments that person is seen in: ' +
    'media_id with start and end seconds. Use it for "every video with grandma"; search also takes a name, and search with `speaker` finds what a person says.',
  input: {
    collection,
    person: z.string().min(1).max(200).optional().describe('A person_id from the list, or a name given to a person'),
    limit: z.number().int().min(1).max(500).optional().describe('At most this many people or moments (default 50)'),
  },
  output: {
    collection: z.string(),
    people: z.array(z.object({ person_id: z.string(), name: z.string().nullable(), face_count: z.number(), voice_count: z.number(), media_count: z.number() })).optional().describe('Without person: the people seen or heard'),
    suggestions: z
      .array(z.object({ voice_person_id: z.string(), face_person_id: z.string(), name: z.string(), recordings: z.number() }))
      .optional()
      .describe('Without person: voices that may be a named face (heard while that face is on screen). Only the user may link them: ask, never assume'),
    person: z.object({ person_id: z.string(), name: z.string().nullable() }).optional().describe('With person: who was found'),
    moments: z.array(z.object({ media_id: z.string(), title: z.string().nullable(), start: z.number(), end: z.number() })).optional().describe("With person: where they are seen (seconds)"),
    more: z.number().optional().describe('Moments left out by limit'),
  },
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const limit = args.limit ?? 50;
    const list = await api.GET('/collections/{collection_id}/people', { params: { path: { collection_id: args.collection } } });
    if (!list.faces) return toolError(`collection ${args.collection} has faces turned off: nobody is grouped (PUT /collections/${args.collection}/faces {"enabled": true} turns them on)`);
    if (args.person === undefined) {
      const suggestions = list.suggestions.map(({ voice_person_id, face_person_id, name, recordings }) => ({ voice_person_id, face_person_id, name, recordings }));
      return { collection: args.collection, people: list.people.slice(0, limit).map(({ person_id, name, face_count, voice_count, media_count }) => ({ person_id, name, face_count, voice_count, media_count })), ...(suggestions.length ? { suggestions } : {}) };
    }
    const who = findPerson(list.people, args.person);
    if (!who) return toolError(`no person "${args.person}" in collection ${args.collection}: call people without \`person\` for the list`);
    const found = await api.GET('/collections/{collection_id}/people/{person_id}/moments', { params: { path: { collection_id: args.collection, person_id: who.person_id } } });
    return {
      collection: args.collection,
      person: { person_id: who.person_id, name: who.name },
      moments: found.moments.slice(0, limit).map(({ media_id, title, start, end }) => ({ media_id, title, start, end })),
      more: Math.max(0, found.moments.length - limit),
    };
  },
});
