/**
 * An answer written by the local model (issue 46): the question and the moments the search found, numbered,
 * are all the model is shown; its output is held to `{answer, cites}` by a JSON grammar; the cites are kept
 * only where they name a moment shown, and the answer ends with where the first cited moment is, from the
 * index (the model is told to leave times and dates out). An answer without a cite is no answer.
 */
import type { Lang } from '../../messages/index.js';
import type { OutputSchema, WriteRequest } from '../../ml/answer/local-model.js';
import { whereSaid, type Citation, type ExtractiveAnswer } from './answer.js';
import type { Question } from './question.js';

/** What writes an answer: the local model (src/ml/answer), or a test's. */
export interface AnswerWriter {
  write(req: WriteRequest): Promise<string>;
}

/** Characters the model's answer may have (before where it is said is added). */
const ANSWER_CHARS = 400;
/** Moments it may cite. */
const MOST_CITES = 5;
/** Tokens it may write: the answer's characters, the JSON around them, and room for multi-byte letters. */
const MAX_TOKENS = 700;

const SYSTEM: Record<Lang, string> = {
  en: 'You answer questions about a person\'s own recordings, using only the numbered moments given. Answer in English, in one or two short sentences. Do not write times or dates: they are added from the index. Reply with JSON: {"answer": "...", "cites": [the numbers of the moments that say it]}. If no moment says it, reply {"answer": "", "cites": []}.',
  de: 'Du beantwortest Fragen zu den eigenen Aufnahmen eines Menschen und nutzt nur die nummerierten Stellen, die du bekommst. Antworte auf Deutsch, in ein oder zwei kurzen Sätzen. Schreib keine Uhrzeiten oder Daten: Sie werden aus dem Index ergänzt. Antworte mit JSON: {"answer": "...", "cites": [die Nummern der Stellen, die es sagen]}. Sagt es keine Stelle, antworte {"answer": "", "cites": []}.',
};

/**
 * The prompt: the question and the moments, numbered as the citations are (the title, who says it where
 * known, and the line); nothing else of the archive.
 * @example
 * promptOf(q, citations); // 'Question: When do we leave?\n\nMoments:\n[0] “boat”: “We leave the harbour at nine …”'
 */
export function promptOf(q: Question, citations: readonly Citation[]): string {
  const moments = citations.map((c, i) => `[${i}] “${c.title ?? c.media_id}”${c.speaker?.name ? `, ${c.speaker.name}` : ''}: “${c.quote}”`);
  return `${q.lang === 'de' ? 'Frage' : 'Question'}: ${q.text}\n\n${q.lang === 'de' ? 'Stellen' : 'Moments'}:\n${moments.join('\n')}`;
}

/** The output's schema: the answer's text and the numbers of the moments it rests on, only ones shown. */
function schemaOf(count: number): OutputSchema {
  return {
    type: 'object',
    properties: {
      answer: { type: 'string', maxLength: ANSWER_CHARS },
      // At least one: an answer rests on a moment; a model with nothing to say writes an empty answer.
      cites: { type: 'array', items: { enum: Array.from({ length: count }, (_, i) => i) }, minItems: 1, maxItems: Math.min(count, MOST_CITES) },
    },
  };
}

/**
 * The model's answer to `q` over `citations`, with `onText` told the answer's text as it is written.
 * Throws when the model fails or is stopped (the caller answers extractively then).
 * @example
 * const answer = await modelAnswer(writer, q, citations, { signal, onText: (t) => send(t) });
 */
export async function modelAnswer(writer: AnswerWriter, q: Question, citations: readonly Citation[], opts: { signal: AbortSignal; onText?: (text: string) => void }): Promise<ExtractiveAnswer> {
  const partial = new PartialAnswer();
  const raw = await writer.write({
    system: SYSTEM[q.lang], prompt: promptOf(q, citations), schema: schemaOf(citations.length), maxTokens: MAX_TOKENS, signal: opts.signal,
    onText: (chunk) => {
      const more = partial.add(chunk);
      if (more) opts.onText?.(more);
    },
  });
  const said = JSON.parse(raw) as { answer?: unknown; cites?: unknown };
  const text = typeof said.answer === 'string' ? said.answer.trim().slice(0, ANSWER_CHARS) : '';
  const cites = [...new Set(Array.isArray(said.cites) ? said.cites : [])].filter((i): i is number => Number.isInteger(i) && i >= 0 && i < citations.length);
  if (!text || cites.length === 0) return { text: null, cites: [] };
  const end = /[.!?…]$/.test(text) ? '' : '.';
  return { text: `${text}${end} — ${whereSaid(citations[cites[0]!]!, q.lang)}`, cites };
}

/**
 * The `answer` string of JSON as it is written, piece by piece: what of it is new after each piece (escapes
 * decoded), so a reader sees the answer's words and never the JSON around them.
 */
class PartialAnswer {
  private raw = '';
  private told = 0;

  add(chunk: string): string {
    this.raw += chunk;
    const text = answerSoFar(this.raw);
    if (text.length <= this.told) return '';
    const more = text.slice(this.told);
    this.told = text.length;
    return more;
  }
}

/** The decoded text of the `answer` string in partial JSON; an escape cut in half waits for its rest. */
function answerSoFar(raw: string): string {
  const start = /"answer"\s*:\s*"/.exec(raw);
  if (!start) return '';
  let out = '';
  for (let i = start.index + start[0].length; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '"') break;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = raw[i + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = raw.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      out += String.fromCharCode(Number.parseInt(hex, 16));
      i += 5;
    } else {
      out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[next] ?? next;
      i += 1;
    }
  }
  return out;
}
