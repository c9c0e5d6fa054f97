/**
 * What a search answer says it could not look for. A search that finds nothing because a model was never
 * installed looks like "nothing there" to its user; a notice names the gap and the model that closes it.
 * Texts live in one table per language, keyed by code, so a client may match on the code and show the text.
 */

import type { WarnedItems } from '../../store/analysis-warnings.js';
import { listed, quote } from '../../analysis/phrases.js';
import type { Lang } from '../../messages/index.js';

/** The gaps a search answer can name. */
export type NoticeCode = 'image_text_missing' | 'speech_missing';

/** One notice of a search answer. */
export interface SearchNotice {
  code: NoticeCode;
  message: string;
  /** `speech_missing`: a few of the items it means (by title), so a page can name them. */
  items?: { media_id: string; title: string | null }[];
  /** `speech_missing`: how many items it means in all. */
  item_count?: number;
}

/** What the notices are made from; each model is named by its id, null when nothing is missing. */
export interface NoticeGaps {
  /** The query has words to look for (a picture alone, or only stopwords, gets no notice). */
  words: boolean;
  /** The image–text model to install when none is installed and no frame vector could be searched by words. */
  imageTextModel: string | null;
  /** The speech model to install when searched items hold speech that was never transcribed. */
  speechModel: string | null;
  /** Those items: a few by name and how many (null when no speech is missing). */
  untranscribed: WarnedItems | null;
}

/** Each notice's text from the model to install and, for speech, the items it means in words. */
type Texts = { image_text_missing: (model: string) => string; speech_missing: (model: string, items: string) => string; more: (n: number) => string };

const EN: Texts = {
  image_text_missing: (model) =>
    `What is only seen (not said or written) cannot be found by words: no image–text model is installed. Install ${model} (\`vidx models pull ${model}\`), then reindex.`,
  speech_missing: (model, items) =>
    `Some items have speech that was never transcribed (no subtitles and no speech model when they were indexed), so what is said in them cannot be found: ${items}. Install ${model} (\`vidx models pull ${model}\`), then reindex them.`,
  more: (n) => `${n} more`,
};

const DE: Texts = {
  image_text_missing: (model) =>
    `Was nur zu sehen ist (nicht gesagt oder geschrieben), ist mit Worten nicht auffindbar: Es ist kein Bild-Text-Modell installiert. Installiere ${model} (\`vidx models pull ${model}\`) und indiziere neu.`,
  speech_missing: (model, items) =>
    `Manche Einträge enthalten Sprache, die nie transkribiert wurde (keine Untertitel und beim Indizieren kein Sprachmodell), daher ist das Gesagte darin nicht auffindbar: ${items}. Installiere ${model} (\`vidx models pull ${model}\`) und indiziere sie neu.`,
  more: (n) => `${n} weitere`,
};

const TEXTS: Record<Lang, Texts> = { en: EN, de: DE };

/** The items a notice means in words: a few titles in quotes, and how many more ("“Memo”, “Talk” and 3 more"). */
function itemWords(found: WarnedItems, language: Lang): string {
  const texts = TEXTS[language];
  const parts = found.items.map((i) => quote(i.title || i.media_id, language));
  if (found.total > parts.length) parts.push(texts.more(found.total - parts.length));
  return listed(parts, language);
}

/**
 * The notices of one search answer, in the order a reader needs them: what was not seen, then what was not heard.
 * @example
 * searchNotices({ words: true, imageTextModel: 'clip-vit-base-patch32', speechModel: null, untranscribed: null }, 'de');
 * // [{ code: 'image_text_missing', message: 'Was nur zu sehen ist … Installiere clip-vit-base-patch32 …' }]
 */
export function searchNotices(gaps: NoticeGaps, language: Lang): SearchNotice[] {
  if (!gaps.words) return [];
  const texts = TEXTS[language];
  const out: SearchNotice[] = [];
  if (gaps.imageTextModel) out.push({ code: 'image_text_missing', message: texts.image_text_missing(gaps.imageTextModel) });
  if (gaps.speechModel && gaps.untranscribed) {
    const { items, total } = gaps.untranscribed;
    out.push({ code: 'speech_missing', message: texts.speech_missing(gaps.speechModel, itemWords(gaps.untranscribed, language)), items, item_count: total });
  }
  return out;
}
