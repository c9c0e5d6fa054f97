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
const Mode = z.enum(['extractive', 'model']).openapi({ description: 'extractive: the answer is built around the quote of a line; model: the local answer model wrote it from the cited moments' });
const ModelId = z.string().optional().openapi({ description: 'With mode model: which model wrote it', example: 'qwen2.5-1.5b-instruct-q4' });
const ModelMs = z.number().int().optional().openapi({ description: "With mode model: of `ms`, the time the model took (loading it included, on a first question); the rest is vidx's own work around it" });
const Notice = z.string().openapi({ description: "Why the local model did not write the answer where it was asked to (it failed to load, took too long, cited nothing); the answer is then the extractive one. In the question's language" });
const AskElement = z
  .union([
    z.object({ type: z.literal('citations'), citations: z.array(Citation) }),
    z.object({ type: z.literal('token'), text: z.string().openapi({ description: "The next piece of the model's answer as it writes; the `answer` element that follows is what counts" }) }),
    z.object({ type: z.literal('notice'), text: Notice }),
    Answer.extend({ type: z.literal('answer') }),
    z.object({ type: z.literal('done'), mode: Mode, model: ModelId, model_ms: ModelMs, ms: z.number().int() }),
  ])
  .openapi('AskElement');
const AskAnswer = z
  .object({ question: z.string(), language: Language, citations: z.array(Citation), answer: Answer, notice: Notice.optional(), mode: Mode, model: ModelId, model_ms: ModelMs, ms: z.number().int() })
  .openapi('AskAnswer');
const StreamQuery = z.object({ stream: z.enum(['true', 'false', '1', '0']).optional().openapi({ description: 'false: one JSON object instead of the stream (default true)' }) });

const askRoute = createRoute({
  method: 'post', path: '/ask', operationId: 'ask', tags: ['search'], security: SECURITY,
  summary: 'Ask a question (vidx extra): an answer from the moments that say it, each cited; none where nothing does',
  description:
    'vidx searches the words of the question and takes the line that holds most of them; none: no answer (text null), never a guess. The extractive answer quotes that line, naming the item, its time and, where known, its date, place and speaker ("when" leads with the time the line names, else the recording date; "where" with the place). ' +
    'Where a local answer model is pulled (capability `answer`), it writes the answer from the cited moments only, held to JSON by a grammar; the answer ends with where its first cited moment is, from the index (times and dates never come from the model). It falls back to the extractive answer, with a `notice`, when it fails, takes longer than VIDX_ASK_MODEL_SECONDS or cites nothing. ' +
    'Streamed by default as application/x-ndjson (or json-seq, as Accept asks): `citations`, then `token`s while a model writes, a `notice` where it did not, then `answer`, then `done`. `?stream=false` answers with one JSON object (AskAnswer). A caller who disconnects stops the model.',
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
    if (query.data.stream === 'false' || query.data.stream === '0') return c.json(await deps.ask.answer(caller, value, c.req.raw.signal), 200);
    // Without an Accept that names a framing, NDJSON: what a script reads line by line. A caller who leaves stops the model.
    const controller = new AbortController();
    return streamElements(c, deps.ask.stream(caller, value, controller.signal), controller, 'ndjson');
  });
}
