/**
 * Only content in the text index: indexes the quality media and counts the words of vidx's own phrases
 * (labels, fillers, question forms; both languages) that the text index or search passages hold although
 * the content never says them.
 */
import { templateWords } from '../../src/analysis/phrases.js';
import type { QualityServer } from './harness.js';
import type { QualityMedia } from './media.js';

/** Words that summaries of earlier versions added ("On screen:", "Seen:", "No speech or text recognised (…)", "Im Bild:"). */
export const LEGACY_TEMPLATE_WORDS = ['screen', 'seen', 'speech', 'recognised', 'text', 'sprache', 'erkannt', 'bild', 'sehen'];

/** Labels as they appear in a passage. */
const LABEL = /\b(On screen|Seen|Text im Bild|Im Bild|Zu sehen):/;

/** What {@link measureTemplates} reports. */
export interface TemplateFigures {
  /** (word, episode) pairs where the word text index holds a template word the content does not say. */
  templateWordsInIndex: number;
  /** Search results for template words that are not part of a content word (the content never says them). */
  searchHitsForTemplateWords: number;
  /** Search results whose passage (`content`) or visual summaries carry a label. */
  passagesWithLabels: number;
  wordsChecked: number;
  found: string[];
}

/** The titles and metadata the media are indexed with: content too, so they are part of the truth. */
export const INDEX_AS = {
  title: { en: 'Mixed lecture', de: 'Gemischter Vortrag', quiet: 'Weekly review' },
  metadata: { speaker: 'Anna Berg' },
} as const;

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Indexes every quality medium into `collection` and checks the index and search passages.
 * @example
 * const f = await measureTemplates(server, media);
 * f.templateWordsInIndex; // 0
 */
export async function measureTemplates(h: QualityServer, media: QualityMedia, collection = 'quality'): Promise<TemplateFigures> {
  const created = await h.call('POST', '/collections', { json: { collection_id: collection, name: 'Quality' } });
  if (created.status !== 201 && created.status !== 409) throw new Error(`collection: ${created.status} ${JSON.stringify(created.body)}`);
  for (const l of media.lectures) {
    await h.task('/index', { collection, index_language: l.language, reindex_if_exists: true, video: { path: l.path, media_id: `lecture-${l.language}`, title: INDEX_AS.title[l.language], additional_metadata: INDEX_AS.metadata } });
  }
  await h.task('/index', { collection, reindex_if_exists: true, video: { path: media.quiet.path, media_id: 'quiet', title: INDEX_AS.title.quiet, additional_metadata: INDEX_AS.metadata } });

  const truth = new Set([
    ...media.lectures.flatMap((l) => [...l.cues.map((c) => c.text), ...l.topics.map((t) => t.title)]).flatMap(wordsOf),
    ...wordsOf(media.quiet.slideText),
    ...Object.values(INDEX_AS.title).flatMap(wordsOf),
    ...Object.values(INDEX_AS.metadata).flatMap(wordsOf),
  ]);
  const candidates = [...new Set([...templateWords(), ...LEGACY_TEMPLATE_WORDS])].filter((w) => w.length > 1 && !truth.has(w));
  const db = h.vidx.store.db;
  // The collection's own words table (one per collection, see src/store/text-index.ts).
  const tables = h.vidx.store.text.readyTables(h.vidx.store.collections.findById(collection)!.pk);
  if (!tables) throw new Error(`collection ${collection} has no text index`);
  const count = db.prepare(`SELECT count(*) AS n FROM ${tables.words} WHERE ${tables.words} MATCH ?`);
  let inIndex = 0;
  let hits = 0;
  const found: string[] = [];
  for (const w of candidates) {
    const n = (count.get(`"${w}"`) as { n: number }).n;
    const r = await h.call('POST', '/search', { form: { collection, query: w } });
    // Word-part search rightly finds "come" in "Welcome": only whole-word template words count there.
    const partOfContent = [...truth].some((t) => t.includes(w));
    const results = partOfContent ? [] : ((r.body?.results ?? []) as unknown[]);
    inIndex += n;
    hits += results.length;
    if (n || results.length) found.push(w);
  }
  let labelled = 0;
  const queries = [...media.lectures.flatMap((l) => l.topics.map((t) => t.title)), media.quiet.slideText, 'budget', 'watching'];
  for (const q of queries) {
    const r = await h.call('POST', '/search', { form: { collection, query: q } });
    const results = (r.body?.results ?? []) as { content: string; computer_vision: { summary: string }[] }[];
    labelled += results.filter((x) => LABEL.test(x.content) || x.computer_vision.some((v) => LABEL.test(v.summary))).length;
  }
  return { templateWordsInIndex: inIndex, searchHitsForTemplateWords: hits, passagesWithLabels: labelled, wordsChecked: candidates.length, found };
}
