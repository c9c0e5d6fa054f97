import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterElement, SuggestionElement } from '../../src/services/explore/index.js';
import { makePhoto, makeVideo } from '../support/folder-media.js';
import { copyVideo, narratedSlide } from '../support/picture-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';
import { srt } from '../support/subtitled-media.js';

/**
 * Issue 42, Explore as new users met it on a fresh install (no models pulled: what is said comes from
 * subtitles, what is shown from OCR, which drops the umlaut of "Königssee"): questions about what is said as
 * well as what is shown, OCR slips kept out of topics, photos asked about as photos, copies counted once.
 */

/** Videos with a caption on screen and subtitles that say other things. */
const CAPTIONED = [
  { file: 'garden.mp4', caption: 'Tomato Harvest', said: 'We planted the seedlings in spring and water them every evening.', title: 'Saturday' },
  { file: 'match.mp4', caption: 'Football Final', said: 'The goalkeeper saved the penalty in the last minute.', title: 'Sunday' },
  { file: 'kitchen.mp4', caption: 'Apple Cake', said: 'Grandma mixes flour, butter and cinnamon in a big bowl.', title: 'Monday' },
];
const BREAD = ['bread', 'bread-copy', 'bread-small'];

type Completion = SuggestionElement['completion'];

describe('Explore a person can trust', () => {
  let s: TestServer;
  /** What each item shows and says, read back from its analysis. */
  const content = new Map<string, { shown: string; said: string; type: string }>();

  async function index(file: string, media_id: string, title: string) {
    const r = await s.call('POST', '/index', { form: { collection: 'trip', video: { path: join(s.mediaDir, file), media_id, title } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id, 180_000);
    expect(t.status, t.error?.message).toBe('completed');
    const a = (await s.call('GET', `/collections/trip/items/${media_id}/analysis`)).body;
    content.set(media_id, {
      shown: a.episodes.flatMap((e: { on_screen_text: string[] }) => e.on_screen_text).join(' '),
      said: a.episodes.flatMap((e: { audio: { text: string }[] }) => e.audio.map((x) => x.text)).join(' '),
      type: file.endsWith('.jpg') ? 'image' : 'video',
    });
  }

  async function streamed<T>(path: string, body: unknown): Promise<T[]> {
    const r = await s.call('POST', path, { form: body, headers: { accept: 'application/x-ndjson' } });
    expect(r.status).toBe(200);
    const text = typeof r.body === 'string' ? r.body : `${JSON.stringify(r.body)}\n`;
    return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
  }
  const suggestions = async (language: 'en' | 'de') =>
    (await streamed<SuggestionElement>('/collection_suggestions', { collection: 'trip', search_language: language })).map((e) => e.completion);
  /** Pairs of a topic and the question after it. */
  const pairs = (els: Completion[]) => els.flatMap((e, i) => (e.type === 'topic' && els[i + 1]?.type === 'question' ? [[e, els[i + 1]!] as const] : []));
  const quoted = (question: string) => question.match(/[“„]([^”“]+)[”“]/)?.[1] ?? '';
  const has = (text: string, phrase: string) => ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `.includes(` ${phrase.toLowerCase()} `);

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    const at = (name: string) => join(s.mediaDir, name);
    for (const c of CAPTIONED) {
      await makeVideo(at(c.file), c.caption, 6);
      await writeFile(at(c.file.replace('.mp4', '.en.srt')), srt([[1, 5, c.said]]));
    }
    // The sign says "Königssee"; OCR reads "Konigssee". The boat trip's subtitles spell it right.
    await makeVideo(at('shore.mp4'), 'Königssee', 6, {}, 'darkgreen');
    await makeVideo(at('boat.mp4'), 'Ahoy', 6, {}, 'maroon');
    await writeFile(at('boat.en.srt'), srt([[1, 3, 'The boat glides across the Königssee.'], [3.5, 5.5, 'The Königssee is the cleanest lake in Germany.']]));
    await makePhoto(at('lisbon.jpg'), 'LISBON');
    await narratedSlide(at('bread.mp4'), { colour: '0x8B5A2B', caption: 'Sourdough bread', speech: 'Today we bake sourdough bread in the stone oven.' });
    await copyVideo(at('bread.mp4'), at('bread-copy.mp4'), { crf: 34, sound: true });
    await copyVideo(at('bread.mp4'), at('bread-small.mp4'), { width: 480, sound: true });
    for (const b of BREAD) await writeFile(at(`${b}.en.srt`), srt([[1, 5, 'Today we bake sourdough bread in the stone oven.']]));

    expect((await s.call('POST', '/collections', { json: { collection_id: 'trip', name: 'Trip' } })).status).toBe(201);
    for (const c of CAPTIONED) await index(c.file, c.file.replace('.mp4', ''), c.title);
    await index('shore.mp4', 'shore', 'Shore');
    await index('boat.mp4', 'boat', 'Boat trip');
    await index('lisbon.jpg', 'lisbon', 'City sign');
    for (const [b, title] of [['bread', 'Baking'], ['bread-copy', 'Baking (copy)'], ['bread-small', 'Baking (small)']] as const) await index(`${b}.mp4`, b, title);
  }, 600_000);
  afterAll(() => s?.close());

  it('asks about what is said as well as what is shown, each where it was found', async () => {
    for (const language of ['en', 'de'] as const) {
      const els = await suggestions(language);
      const said = language === 'en' ? /^What is said about “[^”]+”\?$/ : /^Was wird zu „[^“]+“ gesagt\?$/;
      const shown = language === 'en' ? /^When is “[^”]+” shown\?$/ : /^Wann wird „[^“]+“ gezeigt\?$/;
      const all = JSON.stringify(els.map((e) => e.text));
      for (const c of CAPTIONED) {
        const media = c.file.replace('.mp4', '');
        const pair = pairs(els).find(([topic]) => topic.media_ids.includes(media));
        expect(pair, all).toBeDefined();
        const [topic, question] = pair!;
        // The caption names the topic; the question asks about what the subtitles say.
        expect(has(c.caption, topic.text), all).toBe(true);
        expect(question.text, all).toMatch(said);
        expect(has(c.said, quoted(question.text)), question.text).toBe(true);
      }
      // Every question says where its phrase is: said in a transcript, shown on screen. Both kinds are asked.
      const questions = els.filter((e) => e.type === 'question');
      expect(questions.filter((q) => said.test(q.text)).length, all).toBeGreaterThan(0);
      expect(questions.filter((q) => !said.test(q.text)).length, all).toBeGreaterThan(0);
      for (const q of questions) {
        const phrase = quoted(q.text);
        const where = q.media_ids.map((m) => content.get(m)!);
        if (said.test(q.text)) expect(where.some((w) => has(w.said, phrase)), q.text).toBe(true);
        if (shown.test(q.text)) expect(where.some((w) => has(w.shown, phrase) && w.type === 'video'), q.text).toBe(true);
      }
    }
  });

  it('keeps an OCR slip out of topics: a word shown once, one letter or umlaut from a better-read word', async () => {
    // What the server really read: the sign without its umlaut, the subtitles with it.
    expect(content.get('shore')!.shown).toBe('Konigssee');
    expect(content.get('boat')!.said).toContain('Königssee');
    for (const language of ['en', 'de'] as const) {
      const texts = (await suggestions(language)).map((e) => e.text);
      expect(texts.filter((t) => /konigssee/i.test(t)), texts.join(' | ')).toEqual([]);
      const clusters = await streamed<ClusterElement>('/search_clusters', { query: 'Königssee', collection: 'trip', search_language: language });
      const related = clusters.flatMap((c) => c.related_queries);
      expect(related.filter((t) => /konigssee/i.test(t)), related.join(' | ')).toEqual([]);
    }
  });

  it('asks about a photo as a photo, never when it is shown', async () => {
    const forms = {
      en: { photo: /^Which photos? shows? “[^”]+”\?$/, timed: /^When is / },
      de: { photo: /^(Welches Foto zeigt|Welche Fotos zeigen) „[^“]+“\?$/, timed: /^Wann wird / },
    };
    for (const language of ['en', 'de'] as const) {
      const els = await suggestions(language);
      const all = JSON.stringify(els.map((e) => e.text));
      const photoOnly = (e: Completion) => e.media_ids.every((m) => content.get(m)!.type === 'image');
      for (const q of els.filter((e) => e.type === 'question')) {
        if (photoOnly(q)) expect(q.text, all).toMatch(forms[language].photo);
        if (forms[language].timed.test(q.text)) expect(q.media_ids.some((m) => content.get(m)!.type === 'video'), q.text).toBe(true);
      }
      const lisbon = pairs(els).find(([topic]) => topic.media_ids.includes('lisbon'));
      expect(lisbon?.[1].text ?? all).toMatch(forms[language].photo);
    }
  });

  it('counts a video and its copies as one, and draws no suggestion from the same words in each copy', async () => {
    const groups = (await s.call('GET', '/collections/trip/duplicates')).body.groups as { items: { media_id: string }[] }[];
    const copies = groups.find((g) => g.items.some((i) => i.media_id === 'bread'));
    expect(copies?.items.map((i) => i.media_id).sort(), JSON.stringify(groups)).toEqual([...BREAD].sort());
    for (const language of ['en', 'de'] as const) {
      for (const e of await suggestions(language)) {
        expect(e.media_ids.filter((m) => BREAD.includes(m)).length, JSON.stringify(e)).toBeLessThanOrEqual(1);
        expect(new Set(e.moments.filter((m) => BREAD.includes(m.media_id)).map((m) => m.media_id)).size).toBeLessThanOrEqual(1);
      }
      const clusters = await streamed<ClusterElement>('/search_clusters', { query: 'sourdough bread', collection: 'trip', search_language: language });
      const bread = clusters.find((c) => c.cluster_results.some((r) => r.media_id === 'bread'));
      expect(bread, JSON.stringify(clusters.map((c) => c.additional_info))).toBeDefined();
      // All three are still there (a hit, or a copy a hit names: search shows a shared moment once), counted as one video.
      const hits = bread!.cluster_results as { media_id: string; copies?: { media_id: string }[] }[];
      expect(new Set(hits.flatMap((r) => [r.media_id, ...(r.copies ?? []).map((c) => c.media_id)]))).toEqual(new Set(BREAD));
      expect(bread!.additional_info).toMatch(language === 'en' ? /^1 moment in 1 video: Baking[^,]* 0:0\d \(also in 2 copies\)$/ : /^1 Moment in 1 Video: Baking[^,]* 0:0\d \(auch in 2 Kopien\)$/);
    }
  });
});
