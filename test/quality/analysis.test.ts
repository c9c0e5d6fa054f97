import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureEpisodes } from '../../scripts/quality/episodes.js';
import { startQualityServer, type QualityServer } from '../../scripts/quality/harness.js';
import { buildQualityMedia, type QualityMedia } from '../../scripts/quality/media.js';
import { measureSummaries } from '../../scripts/quality/summaries.js';
import { INDEX_AS, measureTemplates } from '../../scripts/quality/templates.js';
import { contentWords } from '../../src/analysis/text-stats.js';
import { VIDEO_SUMMARY_LIMITS } from '../../src/analysis/summarize.js';

const RS = '\x1e';

/**
 * Analysis quality on generated media with known truth: two three-topic slide lectures (English and
 * German speech with exact sidecar subtitles, slide changes on known cuts) and a quiet clip (a slide,
 * a blank stretch, speech without subtitles). No pulled models: OCR and VAD only.
 */
describe('analysis quality on media with known truth', () => {
  let media: QualityMedia;
  let h: QualityServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'quality-'));
    media = await buildQualityMedia(dir);
    h = await startQualityServer(dir);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts episode boundaries on the slide cuts, and no episode carries another slide’s text', async () => {
    const f = await measureEpisodes(h, media.lectures);
    expect(f.cuts).toBe(4);
    expect(f.boundaryErrorMaxSec, JSON.stringify(f.perLecture)).toBeLessThanOrEqual(0.5);
    expect(f.episodesWithForeignText).toBe(0);
  });

  it('summarises every topic of a three-topic lecture, bounded, in the video’s language, with no false statement', async () => {
    const f = await measureSummaries(h, media.lectures, media.quiet);
    expect(f.topicsInSummary, JSON.stringify(f.perLecture)).toBe(1);
    expect(f.longestSummaryChars).toBeLessThanOrEqual(VIDEO_SUMMARY_LIMITS.totalChars);
    expect(f.perLecture.map((l) => l.language)).toEqual(media.lectures.map((l) => l.language));
    // Speech without a speech model: said in warnings, never "No speech or text recognised" in a summary.
    expect(f.falseStatements).toBe(0);
    expect(f.missingModelWarned).toBe(true);
  });

  it('puts each transcript line in one episode only, and each episode’s summary inside its own part (English and German)', async () => {
    for (const l of media.tight) {
      const r = await h.task('/analyze', { video: { path: l.path } });
      const eps = r.episodic_summary as { start: { seconds: number }; end: { seconds: number }; summary: string; audio: { start: number; text: string }[] }[];
      expect(eps.map((e) => e.start.seconds), l.path).toEqual([0, ...l.cuts.map((c) => expect.closeTo(c, 0))]);
      const lines = eps.flatMap((e) => e.audio.map((a) => a.text));
      // Every cue exactly once, in order: none repeated at a boundary.
      expect(lines, l.path).toEqual(l.cues.map((c) => c.text));
      l.topics.forEach((topic, i) => {
        expect(eps[i].audio.map((a) => a.text), `${l.path} part ${i}`).toEqual(topic.sentences);
        const others = l.topics.filter((_, j) => j !== i).flatMap((t) => t.sentences);
        for (const sentence of others) expect(eps[i].summary, `${l.path} part ${i}`).not.toContain(sentence.slice(0, 12));
      });
      // The video summary names every part, in order, in the video's language.
      const summary = r.video_summary as string;
      const positions = l.topics.map((t) => Math.max(...t.sentences.map((x) => summary.indexOf(x.slice(0, 20)))));
      expect(positions.every((p) => p >= 0), `${l.path}: ${summary}`).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(r.language).toBe(l.language);
    }
  });

  it('keeps template words out of the text index and search passages; finds what is on screen', async () => {
    const f = await measureTemplates(h, media);
    expect(f.wordsChecked).toBeGreaterThan(20);
    expect(f.templateWordsInIndex, f.found.join(', ')).toBe(0);
    expect(f.passagesWithLabels).toBe(0);
    const search = async (query: string) =>
      (await h.call('POST', '/search', { form: { collection: 'quality', query } })).body.results as { media_id: string; start_time: number; content: string }[];
    expect(await search('screen')).toEqual([]);
    expect(await search('speech')).toEqual([]);
    const budget = await search('budget');
    expect(budget.map((r) => r.media_id)).toEqual(['quiet']);
    expect(budget[0].start_time).toBeLessThan(media.quiet.cuts[0]);
    expect(budget[0].content).toBe(media.quiet.slideText);
  });

  it('returns one result per moment of a media', async () => {
    for (const l of media.lectures) {
      for (const t of l.topics) {
        const results = (await h.call('POST', '/search', { form: { collection: 'quality', query: t.title } })).body.results as { media_id: string; start_time: number }[];
        expect(results.length, t.title).toBeGreaterThan(0);
        for (const a of results) {
          const near = results.filter((b) => b !== a && b.media_id === a.media_id && Math.abs(b.start_time - a.start_time) < 2);
          expect(near, `${t.title}: ${JSON.stringify(results)}`).toEqual([]);
        }
      }
    }
  });

  it('suggests topics and grammatical questions without the title and without repeated words', async () => {
    for (const language of ['en', 'de'] as const) {
      const res = await fetch(`${h.vidx.url}/collection_suggestions`, {
        method: 'POST',
        headers: { 'x-api-key': 'vidx_quality_admin_key_0123456789' },
        body: new URLSearchParams({ body: JSON.stringify({ collection: 'quality', search_language: language }) }),
      });
      const els = (await res.text()).split(RS).filter(Boolean).map((c) => JSON.parse(c) as { completion: { type: string; text: string } });
      expect(els.length).toBeGreaterThanOrEqual(4);
      const titleWords = new Set(Object.values(INDEX_AS.title).flatMap(contentWords));
      for (const { completion } of els) {
        const words = contentWords(completion.text);
        expect(words.filter((w) => titleWords.has(w)), completion.text).toEqual([]);
        expect(new Set(words).size, completion.text).toBe(words.length);
        if (completion.type === 'question') {
          const forms = language === 'en'
            ? /^(What is said about “[^”]+”\?|When is “[^”]+” shown\?|Which photos? shows? “[^”]+”\?|Where does “[^”]+” come up\?)$/
            : /^(Was wird zu „[^“]+“ gesagt\?|Wann wird „[^“]+“ gezeigt\?|(Welches Foto zeigt|Welche Fotos zeigen) „[^“]+“\?|Wo kommt „[^“]+“ vor\?)$/;
          expect(completion.text).toMatch(forms);
        }
      }
    }
  });
});
