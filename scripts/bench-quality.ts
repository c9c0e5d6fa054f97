/**
 * Analysis quality on generated media with known truth (scripts/quality/media.ts): episode boundaries
 * against the slide cuts, topics of a three-topic lecture present in its video summary, template words
 * in the text index (must be 0), and the OCR figures. Runs a vidx on 127.0.0.1 with a temp data dir and
 * no pulled models (OCR and VAD only), as the tests do. The last line printed is one JSON object.
 *
 *   npx tsx scripts/bench-quality.ts [--keep]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureEpisodes } from './quality/episodes.js';
import { startQualityServer } from './quality/harness.js';
import { buildQualityMedia } from './quality/media.js';
import { measureSummaries } from './quality/summaries.js';
import { measureTemplates } from './quality/templates.js';

/** The OCR measure (issue 14, items 2 and 3) lives in scripts/quality/ocr.ts, exporting measureOcrQuality(). */
async function ocrFigures(): Promise<unknown> {
  const file = new URL('./quality/ocr.ts', import.meta.url);
  if (!existsSync(file)) return null;
  // OCR MEASURE: the one line where the OCR figures join (a variable path: the file may not exist on every branch).
  const mod = (await import(file.href)) as { measureOcrQuality: () => Promise<unknown> };
  return mod.measureOcrQuality();
}

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-quality-'));
const t0 = performance.now();
try {
  const media = await buildQualityMedia(dir);
  const server = await startQualityServer(dir);
  try {
    const episodes = await measureEpisodes(server, media.lectures);
    const summaries = await measureSummaries(server, media.lectures, media.quiet);
    const templates = await measureTemplates(server, media);
    console.error(JSON.stringify({ episodes: episodes.perLecture, summaries: summaries.perLecture, template_words_found: templates.found }, null, 2));
    const ocr = await ocrFigures();
    console.log(
      JSON.stringify({
        episode_boundary_error_max_s: episodes.boundaryErrorMaxSec,
        episode_boundary_error_mean_s: episodes.boundaryErrorMeanSec,
        cuts: episodes.cuts,
        episodes_with_foreign_slide_text: episodes.episodesWithForeignText,
        topics_in_video_summary: summaries.topicsInSummary,
        topics: summaries.topics,
        longest_video_summary_chars: summaries.longestSummaryChars,
        false_summary_statements: summaries.falseStatements,
        missing_model_warned: summaries.missingModelWarned,
        template_words_in_index: templates.templateWordsInIndex,
        search_hits_for_template_words: templates.searchHitsForTemplateWords,
        passages_with_labels: templates.passagesWithLabels,
        template_words_checked: templates.wordsChecked,
        ocr,
        wall_s: Math.round((performance.now() - t0) / 100) / 10,
      }),
    );
  } finally {
    await server.close();
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
