import { z } from 'zod';
import { LANGS } from '../../messages/index.js';
import { clock } from '../../tools/clock.js';
import { defineTool } from '../tool.js';
import { collection, itemUri } from './fields.js';

/**
 * `ask`: POST /ask, a question answered from the moments that say it, each cited; none where nothing does.
 * @example
 * await client.callTool({ name: 'ask', arguments: { question: 'When do we leave the harbour?', collection: 'home' } });
 */
export const ask = defineTool({
  name: 'ask',
  title: 'Ask the archive',
  description:
    'Answers a question (English or German) from what is said or shown in the collections, quoting the line that says it, with the item, the time, and the date, place and speaker where known. ' +
    'citations lists the moments (the first is the one the answer quotes); cite them with their time. ' +
    'When answer is null nothing in the archive says so: tell the user that, and do not guess. Without collection it asks every collection of the key. ' +
    'mode says whether a local model wrote the answer (model) or it is built around the quote (extractive); notice says why a model that was asked did not.',
  input: {
    question: z.string().min(1).max(2000).describe('The question, e.g. "When is the follow-up appointment?" or "Wann wird Oma neunzig?"'),
    collection: collection.optional(),
    language: z.enum(LANGS).optional().describe("The question's language (en or de); read from the question when left out"),
    limit: z.number().int().min(1).max(20).optional().describe('Moments to cite at most (default 5)'),
  },
  output: {
    question: z.string(),
    answer: z.string().nullable().describe('The answer, or null when nothing says so'),
    note: z.string().optional().describe('Why there is no answer'),
    mode: z.enum(['extractive', 'model']).describe('model: the local answer model wrote it from the citations; extractive: built around the first citation\'s quote'),
    model: z.string().optional().describe('Which local model wrote it'),
    notice: z.string().optional().describe('Why the local model did not write it, where one is installed'),
    citations: z.array(
      z.object({
        collection: z.string(),
        media_id: z.string(),
        title: z.string().nullable(),
        start_time: z.number().describe('Seconds'),
        time: z.string().describe('m:ss'),
        quote: z.string(),
        captured_at: z.string().nullable(),
        place: z.string().nullable(),
        speaker: z.string().nullable(),
        resource: z.string().describe('The item as an MCP resource (its transcript)'),
      }),
    ),
  },
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const a = await api.POST('/ask', { params: { query: { stream: 'false' } }, body: args });
    return {
      question: a.question,
      answer: a.answer.text,
      ...(a.answer.note ? { note: a.answer.note } : {}),
      mode: a.mode,
      ...(a.model ? { model: a.model } : {}),
      ...(a.notice ? { notice: a.notice } : {}),
      citations: a.citations.map((c) => ({
        collection: c.collection, media_id: c.media_id, title: c.title, start_time: c.start_time, time: clock(c.start_time), quote: c.quote,
        captured_at: c.captured_at, place: c.place, speaker: c.speaker?.name ?? c.speaker?.person_id ?? null, resource: itemUri(c.collection, c.media_id),
      })),
    };
  },
});
