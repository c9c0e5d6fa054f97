/**
 * Ask the archive (issue 46): a question answered from the moments vidx's own search finds, every answer
 * citing the moment that says it, and no answer where none does. The extractive path works on every install;
 * where a local model is installed, it writes the answer from the same moments (model-answer.ts), and the
 * extractive answer stands in when it fails, is too slow or cites nothing.
 */
import { EventEmitter, on } from 'node:events';
import { type Lang, msg, render } from '../../messages/index.js';
import type { Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import type { Searcher } from '../search/index.js';
import type { SearchResult } from '../search/results.js';
import { extractiveAnswer, type Citation, type ExtractiveAnswer } from './answer.js';
import { modelAnswer, type AnswerWriter } from './model-answer.js';
import { readQuestion, type Question } from './question.js';

/** What a caller asks. */
export interface AskRequest {
  question: string;
  /** One collection; without it, every collection of the caller. */
  collection?: string;
  /** The question's language; without it, read from the question. */
  language?: Lang;
  /** Moments to cite at most (default 5). */
  limit?: number;
}

/** How an answer was made: picked from the lines, or written by the local model. */
export type AskMode = 'extractive' | 'model';

/** The parts of an answer, in the order they are streamed. */
export type AskElement =
  | { type: 'citations'; citations: Citation[] }
  | { type: 'token'; text: string }
  | { type: 'notice'; text: string }
  | { type: 'answer'; text: string | null; cites: number[]; note?: string }
  | { type: 'done'; mode: AskMode; model?: string; model_ms?: number; ms: number };

/** An answer whole (`?stream=false`). */
export interface AskAnswer {
  question: string;
  language: Lang;
  citations: Citation[];
  answer: { text: string | null; cites: number[]; note?: string };
  /** Why the local model did not write the answer, where it was asked to. */
  notice?: string;
  mode: AskMode;
  model?: string;
  /** Of `ms`, the time the model took (loading it included, on a first question). */
  model_ms?: number;
  ms: number;
}

/** The local model the service may ask, and how long an answer may take it. */
export interface AskModel {
  /** The installed answer model's id, or null (none pulled): asked on each question, so a pull takes effect at once. */
  installed(): string | null;
  writer: AnswerWriter;
  timeoutMs: number;
}

/** Moments read per collection before the answer is chosen among them. */
const READ_PER_COLLECTION = 10;

/**
 * Answers questions.
 * @example
 * const { answer, citations } = await ask.answer(caller, { question: 'When do we leave the harbour?', collection: 'home' });
 */
export class AskService {
  constructor(
    private readonly search: Searcher,
    private readonly collections: CollectionService,
    private readonly model: AskModel | null = null,
  ) {}

  /**
   * The answer's parts as they are ready: the citations, the model's text as it writes, the answer, then how
   * it was made and how long it took. `signal` (the caller left) stops the model.
   */
  async *stream(caller: Caller, req: AskRequest, signal: AbortSignal = new AbortController().signal): AsyncGenerator<AskElement> {
    const t0 = performance.now();
    const q = readQuestion(req.question, req.language);
    const found = q.words.length ? await this.moments(caller, req, q.words.join(' '), q.lang) : [];
    // Every line of the moments found may be the one that answers, not only the line each moment shows.
    const lines = found.flatMap(linesOf);
    const answer = extractiveAnswer(q, lines);
    const done = (mode: AskMode, model?: string, modelMs?: number): AskElement => ({ type: 'done', mode, ...(model ? { model } : {}), ...(modelMs !== undefined ? { model_ms: Math.round(modelMs) } : {}), ms: Math.round(performance.now() - t0) });
    if (answer.text === null) {
      yield { type: 'citations', citations: [] };
      yield { type: 'answer', text: null, cites: [], note: render(msg(req.collection ? 'ask_nothing_here' : 'ask_nothing_anywhere'), q.lang) };
      yield done('extractive');
      return;
    }
    // The line that answers is cited first, then the other moments found, up to the limit.
    const first = lines[answer.cites[0]!]!;
    const others = found.map(citationOf).filter((c) => !(c.collection === first.collection && c.media_id === first.media_id && c.start_time === first.start_time));
    const citations = [first, ...others].slice(0, req.limit ?? 5);
    yield { type: 'citations', citations };
    // The model writes only where a line answers: a question nothing answers stays unanswered with any model.
    const modelId = this.model?.installed() ?? null;
    if (!modelId) {
      yield { type: 'answer', text: answer.text, cites: [0] };
      yield done('extractive');
      return;
    }
    const m0 = performance.now();
    const written = yield* this.written(q, citations, signal);
    if ('notice' in written) {
      yield { type: 'notice', text: written.notice };
      yield { type: 'answer', text: answer.text, cites: [0] };
      yield done('extractive');
      return;
    }
    yield { type: 'answer', text: written.text, cites: written.cites };
    yield done('model', modelId, performance.now() - m0);
  }

  /** The model's answer, its text streamed as tokens; a notice instead where it failed, ran out of time or cited nothing. */
  private async *written(q: Question, citations: Citation[], signal: AbortSignal): AsyncGenerator<AskElement, ExtractiveAnswer | { notice: string }> {
    // The model's text arrives as events, buffered until the stream takes them; 'end' closes the iteration.
    const pieces = new EventEmitter();
    const limit = AbortSignal.timeout(this.model!.timeoutMs);
    const writing = modelAnswer(this.model!.writer, q, citations, { signal: AbortSignal.any([signal, limit]), onText: (t) => pieces.emit('text', t) })
      .then((a) => ({ ok: true as const, a }), (err: unknown) => ({ ok: false as const, err }))
      .finally(() => pieces.emit('end'));
    for await (const [text] of on(pieces, 'text', { close: ['end'] })) yield { type: 'token', text: text as string };
    const outcome = await writing;
    if (!outcome.ok) {
      const why = limit.aborted ? render(msg('ask_model_slow', { seconds: this.model!.timeoutMs / 1000 }), q.lang) : (outcome.err as Error).message;
      return { notice: render(msg('ask_model_failed', { why }), q.lang) };
    }
    if (outcome.a.text === null) return { notice: render(msg('ask_model_cited_nothing'), q.lang) };
    return outcome.a;
  }

  /** The whole answer at once. */
  async answer(caller: Caller, req: AskRequest, signal?: AbortSignal): Promise<AskAnswer> {
    const parts: AskElement[] = [];
    for await (const p of this.stream(caller, req, signal)) parts.push(p);
    const pick = <T extends AskElement['type']>(type: T) => parts.find((p): p is Extract<AskElement, { type: T }> => p.type === type);
    const { type: _a, ...said } = pick('answer')!;
    const done = pick('done')!;
    const notice = pick('notice')?.text;
    return {
      question: req.question.trim(), language: readQuestion(req.question, req.language).lang, citations: pick('citations')!.citations, answer: said,
      ...(notice ? { notice } : {}), mode: done.mode, ...(done.model ? { model: done.model, model_ms: done.model_ms } : {}), ms: done.ms,
    };
  }

  /** The moments the search finds for the words, best first, over the collections asked. */
  private async moments(caller: Caller, req: AskRequest, words: string, lang: Lang): Promise<(SearchResult & { collection: string })[]> {
    const ids = req.collection ? [req.collection] : this.collections.list(caller, {}).map((c) => c.collection_id);
    const out: (SearchResult & { collection: string })[] = [];
    for (const collection of ids) {
      // A question's dates and places are words its lines may say: not read as filters (yet).
      const { results } = await this.search.search(caller, { query: words, collection, limit: READ_PER_COLLECTION, threshold: 0, search_language: lang, understand: false });
      out.push(...results.map((r) => ({ ...r, collection })));
    }
    return out.sort((a, b) => b.score - a.score);
  }
}

/** Each transcript line of a moment as a citation (its shown passage where it has none: on-screen text). */
function linesOf(r: SearchResult & { collection: string }): Citation[] {
  if (r.audio.length === 0) return [citationOf(r)];
  const base = citationOf(r);
  // Who says a line is known for the line the result shows (search's `speaker`); the others are left unnamed.
  return r.audio.map((l) => ({ ...base, start_time: l.start, end_time: l.end, quote: l.text, speaker: l.start === base.start_time ? base.speaker : null }));
}

/** A search result as a citation: the line at its start, whole. */
function citationOf(r: SearchResult & { collection: string }): Citation {
  const line = r.audio.find((l) => l.start <= r.start_time + 0.01 && r.start_time < l.end);
  const place = r.place ? [r.place.city, r.place.country].filter(Boolean).join(', ') : null;
  return {
    collection: r.collection, media_id: r.media_id, title: r.title, start_time: r.start_time, end_time: line?.end ?? r.start_time,
    quote: line?.text ?? r.content, captured_at: r.captured_at, captured_at_source: r.captured_at_source, place, speaker: r.speaker ?? null,
  };
}
