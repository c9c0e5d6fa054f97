import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { CollectionId, errors, Language, SECURITY } from '../schemas/common.js';
import { StreamError } from '../schemas/explore.js';
import { formEnvelope } from '../schemas/submissions.js';
import { streamElements } from '../stream.js';
import { validationProblem } from '../validation.js';

const AskBody = z
  .object({
    question: z.string().trim().min(1).max(2000).openapi({ description: 'The question, in English or German ("When do we leave the harbour?", "Wann wird Oma neunzig?")', example: 'When do we leave the harbour?' }),
    collection: CollectionId.optional().openapi({ description: 'Ask one collection; without it, every collection of the caller' }),
    language: Language.optional().openapi({ description: "The question's language (en or de); without it, read from the question. The answer is in it" }),
    limit: z.number().int().min(1).max(20).optional().openapi({ description: 'Moments to cite at most (default 5)' }),
  })
  .strict()
  .openapi('AskRequest');

const Citation = z
  .object({
    collection: z.string(),
    media_id: z.string(),
    title: z.string().nullable(),
    start_time: z.number().openapi({ description: 'Seconds: where the quoted line starts (the player opens there)' }),
    end_time: z.number(),
    quote: z.string().openapi({ description: 'The line that says it, whole, as indexed' }),
    captured_at: z.string().nullable(),
    captured_at_source: z.enum(['metadata', 'filename', 'file']).nullable().openapi({ description: 'metadata or filename: a recording date; file: only the file\'s date, which answers never name' }),
    place: z.string().nullable().openapi({ description: 'Where it was recorded (city, country), from GPS' }),
    speaker: z.object({ person_id: z.string(), name: z.string().nullable() }).nullable().openapi({ description: 'Who says the line, where the collection groups voices' }),
  })
  .openapi('AskCitation');
const Answer = z.object({
  text: z.string().nullable().openapi({ description: 'The answer, built around the quote of the first citation; null when nothing in the archive says so (never a guess)' }),
  cites: z.array(z.number().int()).openapi({ description: 'Indexes into citations the answer rests on' }),
  note: z.string().optional().openapi({ description: 'With text null: that nothing says so, in the question\'s language' }),
});
const AskElement = z
  .union([
    z.object({ type: z.literal('citations'), citations: z.array(Citation) }),
    Answer.extend({ type: z.literal('answer') }),
    z.object({ type: z.literal('done'), mode: z.literal('extractive'), ms: z.number().int() }),
  ])
  .openapi('AskElement');
const AskAnswer = z
  .object({ question: z.string(), language: Language, citations: z.array(Citation), answer: Answer, mode: z.literal('extractive'), ms: z.number().int() })
  .openapi('AskAnswer');
const StreamQuery = z.object({ stream: z.enum(['true', 'false', '1', '0']).optional().openapi({ description: 'false: one JSON object instead of the stream (default true)' }) });

const askRoute = createRoute({
  method: 'post', path: '/ask', operationId: 'ask', tags: ['search'], security: SECURITY,
  summary: 'Ask a question (vidx extra): an answer from the moments that say it, each cited; none where nothing does',
  description:
    'The answer is extractive: vidx searches the words of the question, takes the line that holds most of them, and answers with it quoted, naming the item, its time and, where known, its date, place and speaker ("when" leads with the time the line names, else the recording date; "where" with the place). ' +
    'Streamed by default as application/x-ndjson (or json-seq, as Accept asks): `citations`, then `answer`, then `done`. `?stream=false` answers with one JSON object (AskAnswer).',
  request: { query: StreamQuery, body: { required: true, content: formEnvelope(AskBody) } },
  responses: {
    200: {
      description: 'The answer: streamed AskElement records, or with ?stream=false one AskAnswer',
      content: { 'application/x-ndjson': { schema: z.union([AskElement, StreamError]) }, 'application/json-seq': { schema: z.union([AskElement, StreamError]) }, 'application/json': { schema: AskAnswer } },
    },
    ...errors(400, 401, 404, 413, 415, 422),
  },
});

/**
 * POST /ask: a question answered from the caller's moments (issue 46).
 * @example
 * askRoutes(app, deps);
 */
export function askRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.registerPath(askRoute);
  const noUploads = { ...deps.form, maxUploadBytes: 0 };
  app.post('/ask', async (c: Context<AppEnv>) => {
    const query = StreamQuery.safeParse({ stream: c.req.query('stream') });
    if (!query.success) throw validationProblem(query.error.issues);
    const { value } = await readFormBody(c, AskBody, noUploads);
    const caller = c.get('caller');
    if (query.data.stream === 'false' || query.data.stream === '0') return c.json(await deps.ask.answer(caller, value), 200);
    // Without an Accept that names a framing, NDJSON: what a script reads line by line.
    return streamElements(c, deps.ask.stream(caller, value), new AbortController(), 'ndjson');
  });
}
