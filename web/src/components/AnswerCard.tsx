/**
 * The answer to a question typed in the search box (POST /ask): the sentence built around the line that
 * says it, and that line's moment to play; or that nothing in the archive says so. Shown above the moments.
 */
import { useSession } from '../context.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
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

/**
 * The answer card; nothing while it loads, for a query that is no question, or for a shared (public) view.
 * @example
 * <AnswerCard question="When do we leave the harbour?" collection="home" />
 */
export function AnswerCard({ question, collection }: { question: string; collection: string }) {
  const { api } = useSession();
  const asked = isQuestion(question);
  const found = useLoad(() => (asked ? api.ask(question, collection || undefined) : Promise.resolve(null)), [api, question, collection, asked]);
  const a = found.value;
  if (!asked || !a) return null;
  const first = a.answer.text !== null ? a.citations[a.answer.cites[0] ?? 0] : undefined;
  return (
    <section class="card answer stack tight" data-answer aria-label={t('answerHeading')}>
      <h3>{t('answerHeading')}</h3>
      <p data-answer-text>{a.answer.text ?? a.answer.note}</p>
      {first && (
        <a href={href('c', first.collection, 'play', first.media_id, { t: Math.round(first.start_time * 10) / 10 })} data-citation>
          {t('answerPlay', first.title || first.media_id, clock(first.start_time))}
        </a>
      )}
    </section>
  );
}
