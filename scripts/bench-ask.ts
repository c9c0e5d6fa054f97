/**
 * Benchmark of answers (issue 46), the extractive path with no model: renders the judged collection of the
 * relevance benchmark (scripts/relevance/corpus.ts), indexes it through a real vidx on 127.0.0.1, asks the
 * judged questions below (English and German, of every kind, some that nothing answers) through
 * POST /ask?stream=false, and scores: the right moment cited first, the answer holding the key phrase, every
 * unanswerable question answered with no text; and the answer time (p50, p95) as the server reports it.
 *
 *   npm run bench:ask [-- --moments 100000 [--asks 200]] [-- --model]
 *
 * With --model also the same questions answered by the tiny GGUF stand-in (scripts/make-fixture-gguf.ts,
 * imported as a model archive): its answers are noise, so what is measured is what vidx adds around a model
 * (`ms` less the model's own `model_ms`), the first load, and the time to the first streamed token.
 * With --moments N also the time of answers in a collection of N synthetic episodes (bench-search's builder):
 * its queries asked as questions over HTTP, p50 and p95 of the round trip.
 * A table per question goes to stderr; the last stdout line is one JSON object.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import { CORPUS } from './relevance/corpus.js';
import { mediaFiles, renderAll } from './relevance/media.js';
import { ADMIN_KEY as BIG_KEY, arg, build, queries } from './bench-search.js';
import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { makeFixtureModels } from './make-fixture-models.js';
import { modelArchiveForm } from '../src/client/upload.js';

const ADMIN_KEY = 'vidx_bench_ask_key_00000000000000';
const NO_HUB = 'http://127.0.0.1:9/';

/** A judged question: the item and a phrase of the line that answers it, or null when nothing does. */
interface Judged { question: string; media: string | null; phrase?: string }

const QUESTIONS: Judged[] = [
  { question: 'How many apples do I peel?', media: 'apple-cake', phrase: 'six apples' },
  { question: 'How many eggs go into the bowl?', media: 'apple-cake', phrase: 'three eggs' },
  { question: 'What goes on top of the apple cake?', media: 'apple-cake', phrase: 'in a circle' },
  { question: 'How hot is the oven?', media: 'apple-cake', phrase: 'one hundred and eighty degrees' },
  { question: "How long has grandpa's starter been in the fridge?", media: 'bread-grandpa', phrase: 'thirty years' },
  { question: 'What does grandpa score the loaf with?', media: 'bread-grandpa', phrase: 'razor blade' },
  { question: 'Where does the bread bake?', media: 'bread-grandpa', phrase: 'cast iron pot' },
  { question: 'What wood is the kitchen table made of?', media: 'kitchen-table', phrase: 'old oak boards' },
  { question: 'How do I cut the legs?', media: 'kitchen-table', phrase: 'hand saw' },
  { question: 'How many coats of linseed oil?', media: 'kitchen-table', phrase: 'Two coats' },
  { question: 'Who helps carry the table into the kitchen?', media: 'kitchen-table', phrase: 'My daughter' },
  { question: 'How many candles does Emma blow out?', media: 'emma-birthday', phrase: 'seven candles' },
  { question: 'What did Grandma bring to the birthday?', media: 'emma-birthday', phrase: 'chocolate cake' },
  { question: 'What present did Emma get?', media: 'emma-birthday', phrase: 'red bicycle' },
  { question: 'What game do the kids play in the garden?', media: 'emma-birthday', phrase: 'musical chairs' },
  { question: 'What did Dad forget at the beach?', media: 'beach', phrase: 'sunscreen' },
  { question: 'Where do we eat fish and chips?', media: 'beach', phrase: 'on the pier' },
  { question: "Why can't we swim today?", media: 'beach', phrase: 'too big' },
  { question: 'When do we watch the sun go down?', media: 'beach', phrase: 'In the evening' },
  { question: 'In which part do we talk about bridges in Lisbon?', media: 'lecture', phrase: 'part 19' },
  { question: 'Where do we talk about printing in Naples?', media: 'lecture', phrase: 'part 120' },
  { question: 'Wo starten wir die Wanderung?', media: 'wanderung', phrase: 'am Parkplatz' },
  { question: 'Wann starten wir?', media: 'wanderung', phrase: 'am Morgen' },
  { question: 'Was gibt es in der Hütte?', media: 'wanderung', phrase: 'Suppe und Apfelstrudel' },
  { question: 'Wie viele Gämsen sehen wir?', media: 'wanderung', phrase: 'drei Gämsen' },
  { question: 'Wann beginnt es zu regnen?', media: 'wanderung', phrase: 'Gipfel' },
  { question: 'Was hatten wir zum Glück dabei?', media: 'wanderung', phrase: 'Regenjacken' },
  { question: 'Wie lange ist der Apfelkuchen im Ofen?', media: 'omas-apfelkuchen', phrase: 'eine Stunde' },
  { question: 'Womit schmeckt der Kuchen am besten?', media: 'omas-apfelkuchen', phrase: 'Sahne' },
  { question: 'Was schälen wir zuerst?', media: 'omas-apfelkuchen', phrase: 'Äpfel' },
  { question: 'Was braucht der Teig?', media: 'omas-apfelkuchen', phrase: 'Butter, Zucker und Mehl' },
  { question: 'Wer backt heute mit uns?', media: 'omas-apfelkuchen', phrase: 'Oma' },
  { question: 'Welches Rad hat einen Platten?', media: 'fahrrad', phrase: 'Hinterrad' },
  { question: 'Wie findet man das Loch im Schlauch?', media: 'fahrrad', phrase: 'Blasen' },
  { question: 'Womit wird das Loch geschlossen?', media: 'fahrrad', phrase: 'Flicken' },
  { question: 'Where did we eat the sardines?', media: null },
  { question: 'When is the dentist appointment?', media: null },
  { question: 'Who won the football match?', media: null },
  { question: 'How much did the new car cost?', media: null },
  { question: 'What did the doctor say about ibuprofen?', media: null },
  { question: 'Wann ist der Zahnarzttermin?', media: null },
  { question: 'Wo haben wir die Sardinen gegessen?', media: null },
  { question: 'Wer hat das Fußballspiel gewonnen?', media: null },
  { question: 'Wie heißt der Hund der Nachbarn?', media: null },
];

interface AskAnswer { citations: { media_id: string; quote: string }[]; answer: { text: string | null }; ms: number }

/** Questions over a big synthetic collection (bench-search's), timed over HTTP: p50 and p95 in ms. */
async function atScale(episodes: number, asks: number): Promise<{ moments: number; asks: number; p50: number; p95: number; answered: number; build_s: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-ask-big-'));
  try {
    const buildSeconds = build(dir, episodes);
    const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dir, VIDX_LOG: 'silent', VIDX_ADMIN_KEY: BIG_KEY }), { queryEmbedder: null });
    try {
      const times: number[] = [];
      let answered = 0;
      const forms = ['What about {q}?', 'Where is {q}?', 'Wann war {q}?', 'Who said {q}?'];
      for (const [i, q] of queries(asks).entries()) {
        const t0 = performance.now();
        const res = await fetch(`${vidx.url}/ask?stream=false`, { method: 'POST', headers: { 'x-api-key': BIG_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ question: forms[i % forms.length]!.replace('{q}', q), collection: 'main' }) });
        const body = (await res.json()) as AskAnswer;
        times.push(performance.now() - t0);
        if (body.answer?.text) answered++;
      }
      times.sort((a, b) => a - b);
      const at = (f: number) => Math.round(times[Math.floor(times.length * f)]! * 10) / 10;
      return { moments: episodes, asks, p50: at(0.5), p95: at(0.95), answered, build_s: Math.round(buildSeconds) };
    } finally {
      await vidx.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The judged answerable questions answered by the stand-in model, streamed: the first question's time (the
 * model loads then), and over the rest p50 and p95 of the time to the first token and of what vidx adds
 * around the model (`ms` - `model_ms`).
 */
async function aroundModel(url: string, root: string): Promise<Record<string, unknown>> {
  execFileSync('tar', ['-cf', join(root, 'llm.tar'), '-C', join(root, 'hub', 'vidx-test', 'tiny-llm'), '.']);
  const imported = await fetch(`${url}/models/import`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY }, body: modelArchiveForm(await openAsBlob(join(root, 'llm.tar')), 'llm.tar', 'tiny-llm') });
  if (imported.status !== 200) throw new Error(`importing the stand-in model failed: ${imported.status}`);
  const rows: { first_token_ms: number; ms: number; around_ms: number; mode: string }[] = [];
  for (const q of QUESTIONS.filter((x) => x.media !== null)) {
    const t0 = performance.now();
    const res = await fetch(`${url}/ask`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ question: q.question, collection: 'home' }) });
    let firstToken = Number.NaN;
    let done: { mode: string; ms: number; model_ms?: number } | null = null;
    for (const line of (await streamedLines(res, () => (firstToken = Number.isNaN(firstToken) ? performance.now() - t0 : firstToken)))) {
      const el = JSON.parse(line) as { type: string; mode: string; ms: number; model_ms?: number };
      if (el.type === 'done') done = el;
    }
    if (!done) throw new Error(`no answer to ${q.question}`);
    rows.push({ first_token_ms: Math.round(firstToken), ms: done.ms, around_ms: done.ms - (done.model_ms ?? done.ms), mode: done.mode });
  }
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];
  // Past the first (which loads the model), the questions the model wrote for (the others have no tokens).
  const rest = rows.slice(1).filter((r) => r.mode === 'model');
  return {
    model: 'tiny-llm (stand-in, random weights)', questions: rows.length, by_model: rows.filter((r) => r.mode === 'model').length,
    first_question_ms: rows[0]?.ms, first_token_ms: { p50: pct(rest.map((r) => r.first_token_ms), 0.5), p95: pct(rest.map((r) => r.first_token_ms), 0.95) },
    around_model_ms: { p50: pct(rest.map((r) => r.around_ms), 0.5), p95: pct(rest.map((r) => r.around_ms), 0.95) },
  };
}

/** The NDJSON lines of a response; `onToken` is called as each chunk holding a token arrives. */
async function streamedLines(res: Response, onToken: () => void): Promise<string[]> {
  const lines: string[] = [];
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    if (rest.includes('"type":"token"')) onToken();
    const parts = rest.split('\n');
    rest = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  }
  return lines;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'vidx-ask-'));
  const mediaDir = join(root, 'media');
  mkdirSync(mediaDir);
  try {
    await renderAll(mediaDir, CORPUS);
    // The stand-in model is one of the fixture manifest's: the server reads that manifest then.
    const manifest = process.argv.includes('--model') ? { VIDX_MODELS_MANIFEST: (await makeFixtureModels(join(root, 'hub'))).manifestPath } : {};
    const config = loadConfig({
      VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(root, 'data'), VIDX_MEDIA_ROOTS: mediaDir,
      VIDX_MODELS_DIR: join(root, 'models'), VIDX_HUB_URL: NO_HUB, VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_LOG: 'silent', ...manifest,
    });
    const vidx = await startVidx(config);
    try {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${vidx.url}${path}`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as unknown };
      };
      await post('/collections', { collection_id: 'home', name: 'Home archive' });
      for (const m of CORPUS) {
        const r = await post('/index', { collection: 'home', index_language: m.language, video: { path: mediaFiles(mediaDir, m).video, media_id: m.id, title: m.title } });
        const id = (r.body as { task_id: string }).task_id;
        for (;;) {
          const task = (await (await fetch(`${vidx.url}/tasks/${id}`, { headers: { 'x-api-key': ADMIN_KEY } })).json()) as { status: string };
          if (task.status === 'completed') break;
          if (task.status === 'failed') throw new Error(`indexing ${m.id} failed`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const rows: { question: string; first: boolean; phrase: boolean; ms: number }[] = [];
      for (const q of QUESTIONS) {
        const a = (await post('/ask?stream=false', { question: q.question, collection: 'home' })).body as AskAnswer;
        const first = q.media === null ? a.answer.text === null : a.citations[0]?.media_id === q.media && a.citations[0]!.quote.includes(q.phrase!);
        const phrase = q.media === null ? a.answer.text === null : (a.answer.text ?? '').includes(q.phrase!);
        rows.push({ question: q.question, first, phrase, ms: a.ms });
        console.error(`${first ? 'ok  ' : 'MISS'} ${phrase ? 'ok  ' : 'MISS'} ${String(a.ms).padStart(4)} ms  ${q.question}  →  ${a.answer.text ?? '(nothing)'}`);
      }
      const answerable = QUESTIONS.filter((q) => q.media !== null).length;
      const share = (f: (r: (typeof rows)[number], q: Judged) => boolean, of: (q: Judged) => boolean) => {
        const picked = rows.filter((_, i) => of(QUESTIONS[i]!));
        return Math.round((picked.filter((r) => f(r, QUESTIONS[rows.indexOf(r)]!)).length / Math.max(1, picked.length)) * 1000) / 1000;
      };
      const ms = rows.map((r) => r.ms).sort((x, y) => x - y);
      const withModel = process.argv.includes('--model') ? await aroundModel(vidx.url, root) : null;
      if (withModel) console.error(JSON.stringify({ model: withModel }));
      const moments = Number(arg('moments', '0'));
      const scale = moments > 0 ? await atScale(moments, Number(arg('asks', '200'))) : null;
      if (scale) console.error(JSON.stringify({ at_scale: scale }));
      console.log(JSON.stringify({
        bench: 'ask', date: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', load_avg_1m: Math.round(loadavg()[0]! * 100) / 100 },
        questions: QUESTIONS.length, answerable, unanswerable: QUESTIONS.length - answerable,
        right_moment_first: share((r) => r.first, (q) => q.media !== null),
        key_phrase_in_answer: share((r) => r.phrase, (q) => q.media !== null),
        unanswerable_null: share((r) => r.first, (q) => q.media === null),
        ms: { p50: ms[Math.floor(ms.length / 2)], p95: ms[Math.floor(ms.length * 0.95)], moments: CORPUS.reduce((s, m) => s + m.lines.length + m.slides.length, 0) },
        at_scale: scale,
        model: withModel,
      }));
    } finally {
      await vidx.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
