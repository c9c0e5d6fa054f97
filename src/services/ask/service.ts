/**
 * Ask the archive (issue 46): a question answered from the moments vidx's own search finds, every answer
 * citing the moment that says it, and no answer where none does. This is the extractive path that works on
 * every install; a local model is not used yet.
 */
import { type Lang, msg, render } from '../../messages/index.js';
import type { Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import type { SearchService } from '../search/index.js';
import type { SearchResult } from '../search/results.js';
import { extractiveAnswer, type Citation } from './answer.js';
import { readQuestion } from './question.js';

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

/** The parts of an answer, in the order they are streamed. */
export type AskElement =
  | { type: 'citations'; citations: Citation[] }
  | { type: 'answer'; text: string | null; cites: number[]; note?: string }
  | { type: 'done'; mode: 'extractive'; ms: number };

/** An answer whole (`?stream=false`). */
export interface AskAnswer {
  question: string;
  language: Lang;
  citations: Citation[];
  answer: { text: string | null; cites: number[]; note?: string };
  mode: 'extractive';
  ms: number;
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
    private readonly search: SearchService,
    private readonly collections: CollectionService,
  ) {}

  /** The answer's parts as they are ready: the citations, the answer, then how it was made and how long it took. */
  async *stream(caller: Caller, req: AskRequest): AsyncGenerator<AskElement> {
    const t0 = performance.now();
    const q = readQuestion(req.question, req.language);
    const found = q.words.length ? await this.moments(caller, req, q.words.join(' '), q.lang) : [];
    // Every line of the moments found may be the one that answers, not only the line each moment shows.
    const lines = found.flatMap(linesOf);
    const answer = extractiveAnswer(q, lines);
    if (answer.text === null) {
      yield { type: 'citations', citations: [] };
      yield { type: 'answer', text: null, cites: [], note: render(msg(req.collection ? 'ask_nothing_here' : 'ask_nothing_anywhere'), q.lang) };
    } else {
      // The line that answers is cited first, then the other moments found, up to the limit.
      const first = lines[answer.cites[0]!]!;
      const others = found.map(citationOf).filter((c) => !(c.collection === first.collection && c.media_id === first.media_id && c.start_time === first.start_time));
      const citations = [first, ...others].slice(0, req.limit ?? 5);
      yield { type: 'citations', citations };
      yield { type: 'answer', text: answer.text, cites: [0] };
    }
    yield { type: 'done', mode: 'extractive', ms: Math.round(performance.now() - t0) };
  }

  /** The whole answer at once. */
  async answer(caller: Caller, req: AskRequest): Promise<AskAnswer> {
    const parts: AskElement[] = [];
    for await (const p of this.stream(caller, req)) parts.push(p);
    const citations = parts.find((p) => p.type === 'citations')!;
    const answer = parts.find((p) => p.type === 'answer')!;
    const done = parts.find((p) => p.type === 'done')!;
    const { type: _a, ...said } = answer;
    return { question: req.question.trim(), language: readQuestion(req.question, req.language).lang, citations: citations.citations, answer: said, mode: done.mode, ms: done.ms };
  }

  /** The moments the search finds for the words, best first, over the collections asked. */
  private async moments(caller: Caller, req: AskRequest, words: string, lang: Lang): Promise<(SearchResult & { collection: string })[]> {
    const ids = req.collection ? [req.collection] : this.collections.list(caller, {}).map((c) => c.collection_id);
    const out: (SearchResult & { collection: string })[] = [];
    for (const collection of ids) {
      const { results } = await this.search.search(caller, { query: words, collection, limit: READ_PER_COLLECTION, threshold: 0, search_language: lang });
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
