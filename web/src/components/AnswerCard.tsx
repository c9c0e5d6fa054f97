/**
 * The answer to a question typed in the search box (POST /ask): the sentence built around the line that
 * says it, and that line's moment to play; or that nothing in the archive says so. Shown above the moments.
 */
import { useEffect, useState } from 'preact/hooks';
import type { AskElement, Citation } from '../api.js';
import { useSession } from '../context.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { href } from '../router.js';

/** Question words of English and German, and a closing question mark: what makes a query a question. */
const QUESTION = /\?\s*$|^\s*(when|where|who|whom|whose|what|which|why|how|wann|wo|wohin|woher|wer|wem|wen|was|welche\w*|warum|wieso|wie)\b/i;

/**
 * Whether the words typed ask a question (then an answer is looked for besides the moments).
 * @example
 * isQuestion('When do we leave?'); // true
 * isQuestion('harbour'); // false
 */
export function isQuestion(text: string): boolean {
  return QUESTION.test(text.trim());
}

/** The answer as its parts arrive: the citations, the model's text so far, a notice, the answer, how it was made. */
interface Asked {
  citations: Citation[];
  writing: string;
  notice?: string;
  answer?: { text: string | null; cites: number[]; note?: string };
  model?: string;
}

/** One more part of the stream, added to what was there. */
function received(a: Asked, el: AskElement): Asked {
  switch (el.type) {
    case 'citations': return { ...a, citations: el.citations };
    case 'token': return { ...a, writing: a.writing + el.text };
    case 'notice': return { ...a, notice: el.text };
    case 'answer': return { ...a, answer: { text: el.text, cites: el.cites, ...(el.note ? { note: el.note } : {}) } };
    case 'done': return el.mode === 'model' && el.model ? { ...a, model: el.model } : a;
    default: return a;
  }
}

/**
 * The answer card; nothing while it loads, for a query that is no question, or for a shared (public) view.
 * Where a local model writes the answer, its words appear as it writes them; the finished answer replaces them.
 * @example
 * <AnswerCard question="When do we leave the harbour?" collection="home" />
 */
export function AnswerCard({ question, collection }: { question: string; collection: string }) {
  const { api } = useSession();
  const asked = isQuestion(question);
  const [a, setA] = useState<Asked | null>(null);
  useEffect(() => {
    setA(null);
    if (!asked) return;
    const ctl = new AbortController();
    let now: Asked = { citations: [], writing: '' };
    api.stream('/ask', { question, ...(collection ? { collection } : {}) }, (el) => {
      now = received(now, el);
      setA(now);
    }, ctl.signal).catch(() => {
      // A failed question leaves the moments below it; the card stays away.
    });
    return () => ctl.abort();
  }, [api, question, collection, asked]);
  if (!asked || !a || (!a.answer && !a.writing)) return null;
  const first = a.answer && a.answer.text !== null ? a.citations[a.answer.cites[0] ?? 0] : undefined;
  return (
    <section class="card answer stack tight" data-answer aria-label={t('answerHeading')} aria-busy={a.answer ? 'false' : 'true'}>
      <h3>{t('answerHeading')}</h3>
      <p data-answer-text>{a.answer ? (a.answer.text ?? a.answer.note) : a.writing}</p>
      {a.notice && <p class="muted" data-answer-notice>{a.notice}</p>}
      {a.model && <p class="muted" data-answer-model>{t('answerWrittenBy', a.model)}</p>}
      {first && (
        <a href={href('c', first.collection, 'play', first.media_id, { t: Math.round(first.start_time * 10) / 10 })} data-citation>
          {t('answerPlay', first.title || first.media_id, clock(first.start_time))}
        </a>
      )}
    </section>
  );
}
