/**
 * What a search answer says it could not look for. A search that finds nothing because a model was never
 * installed looks like "nothing there" to its user; a notice names the gap and the model that closes it.
 * Texts live in one table per language, keyed by code, so a client may match on the code and show the text.
 */

/** The gaps a search answer can name. */
export type NoticeCode = 'image_text_missing' | 'speech_missing';

/** One notice of a search answer. */
export interface SearchNotice {
  code: NoticeCode;
  message: string;
}

/** The languages notices are written in. */
export type NoticeLanguage = 'en' | 'de';

/** What the notices are made from; each model is named by its id, null when nothing is missing. */
export interface NoticeGaps {
  /** The query has words to look for (a picture alone, or only stopwords, gets no notice). */
  words: boolean;
  /** The image–text model to install when none is installed and no frame vector could be searched by words. */
  imageTextModel: string | null;
  /** The speech model to install when searched items hold speech that was never transcribed. */
  speechModel: string | null;
}

type Texts = Record<NoticeCode, (model: string) => string>;

const EN: Texts = {
  image_text_missing: (model) =>
    `What is only seen (not said or written) cannot be found by words: no image–text model is installed. Install ${model} (\`vidx models pull ${model}\`), then reindex.`,
  speech_missing: (model) =>
    `Some items have speech that was never transcribed (no subtitles and no speech model when they were indexed), so what is said in them cannot be found. Install ${model} (\`vidx models pull ${model}\`), then reindex them.`,
};

const DE: Texts = {
  image_text_missing: (model) =>
    `Was nur zu sehen ist (nicht gesagt oder geschrieben), ist mit Worten nicht auffindbar: Es ist kein Bild-Text-Modell installiert. Installiere ${model} (\`vidx models pull ${model}\`) und indiziere neu.`,
  speech_missing: (model) =>
    `Manche Einträge enthalten Sprache, die nie transkribiert wurde (keine Untertitel und beim Indizieren kein Sprachmodell), daher ist das Gesagte darin nicht auffindbar. Installiere ${model} (\`vidx models pull ${model}\`) und indiziere sie neu.`,
};

const TEXTS: Record<NoticeLanguage, Texts> = { en: EN, de: DE };

/**
 * The notices of one search answer, in the order a reader needs them: what was not seen, then what was not heard.
 * @example
 * searchNotices({ words: true, imageTextModel: 'clip-vit-base-patch32', speechModel: null }, 'de');
 * // [{ code: 'image_text_missing', message: 'Was nur zu sehen ist … Installiere clip-vit-base-patch32 …' }]
 */
export function searchNotices(gaps: NoticeGaps, language: NoticeLanguage): SearchNotice[] {
  if (!gaps.words) return [];
  const texts = TEXTS[language];
  const out: SearchNotice[] = [];
  if (gaps.imageTextModel) out.push({ code: 'image_text_missing', message: texts.image_text_missing(gaps.imageTextModel) });
  if (gaps.speechModel) out.push({ code: 'speech_missing', message: texts.speech_missing(gaps.speechModel) });
  return out;
}
