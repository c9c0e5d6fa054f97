/**
 * Answers say what they could not look for: no image–text model (`image_text_missing`), speech that was
 * never transcribed (`speech_missing`), in English or German; `corrected` is always there. No models are
 * installed in tests, so both gaps are real here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModel, loadManifest } from '../../src/ml/registry/manifest.js';
import { SPEECH_NOT_TRANSCRIBED, SPEECH_NOT_TRANSCRIBED_KEY } from '../../src/analysis/speech-warning.js';
import { type AnalysisWarning, warning } from '../../src/analysis/warnings.js';
import { searchNotices } from '../../src/services/search/notices.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem, indexFixtures } from './fixtures.js';

const manifest = loadManifest();
const CLIP = defaultModel(manifest, 'image_text')!.id;
const WHISPER = defaultModel(manifest, 'asr')!.id;

/** The warning as items stored before warnings were keyed hold it: English words. */
const OLD_WARNING = `${SPEECH_NOT_TRANSCRIBED}: the speech recognition model is missing: run \`vidx models pull ${WHISPER}\``;

/**
 * Stores a video whose speech was found but not transcribed (no subtitles, no speech model), as the analysis
 * leaves it: by default as an older analysis did, in words.
 */
function storeUntranscribed(s: TestServer, collectionId: string, mediaId: string, said: AnalysisWarning = OLD_WARNING): void {
  const pk = s.vidx.store.collections.findById(collectionId)!.pk;
  const analysis = {
    ...buildAnalysis({ language: 'en', summary: 'A talk in a garden.', episodes: [{ start: 0, end: 60, summary: 'Someone talks.', visual: [{ start: 0, end: 60, summary: 'A garden', tags: ['garden'] }] }] }),
    transcript: [],
    transcriptSource: 'none' as const,
    warnings: [said],
  };
  s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, collectionId, mediaId, { title: 'Garden talk' }), analysis, { replace: false });
}

describe('POST /search notices and corrected', () => {
  let s: TestServer;
  const search = (form: Record<string, unknown>, headers: Record<string, string> = {}) => s.call('POST', '/search', { form: { collection: 'mixed', ...form }, headers });
  const codes = (body: { notices: { code: string }[] }) => body.notices.map((n) => n.code);

  beforeAll(async () => {
    s = await startTestApp({ queryEmbedder: null });
    for (const id of ['mixed', 'heard', 'keyed']) expect((await s.call('POST', '/collections', { json: { collection_id: id, name: id } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'heard');
    indexFixtures(s.vidx, s.dataDir, 'mixed');
    storeUntranscribed(s, 'mixed', 'garden-talk');
    storeUntranscribed(s, 'keyed', 'garden-walk', warning(SPEECH_NOT_TRANSCRIBED_KEY, { reason: `missing: run \`vidx models pull ${WHISPER}\`` }));
  });
  afterAll(() => s.close());

  it('names the missing image–text model, and corrected is an empty list', async () => {
    const r = await search({ query: 'penalty' }, {});
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1 });
    expect(r.body.corrected).toEqual([]);
    const heard = await s.call('POST', '/search', { form: { collection: 'heard', query: 'penalty' } });
    expect(heard.body.notices).toEqual([{ code: 'image_text_missing', message: expect.stringContaining(`vidx models pull ${CLIP}`) }]);
    expect(heard.body.notices[0].message).toMatch(/^What is only seen \(not said or written\) cannot be found by words/);
  });

  it('says that a collection holds speech that was never transcribed, and names the speech model', async () => {
    const r = await search({ query: 'penalty' });
    expect(codes(r.body)).toEqual(['image_text_missing', 'speech_missing']);
    expect(r.body.notices[1].message).toContain(`vidx models pull ${WHISPER}`);
    // It names the items it means (issue 42), for the page to name them in its own words too.
    expect(r.body.notices[1]).toMatchObject({ items: [{ media_id: 'garden-talk', title: 'Garden talk' }], item_count: 1 });
    expect(r.body.notices[1].message).toContain('cannot be found: “Garden talk”. Install');
    // One item searched: only that item's gap counts.
    expect(codes((await search({ query: 'penalty', media_id: 'cup-final' })).body)).toEqual(['image_text_missing']);
    expect(codes((await search({ query: 'garden', media_id: 'garden-talk' })).body)).toEqual(['image_text_missing', 'speech_missing']);
  });

  it('finds the gap in items whose warning is keyed, as analyses store it now', async () => {
    const r = await s.call('POST', '/search', { form: { collection: 'keyed', query: 'garden' } });
    expect(codes(r.body)).toContain('speech_missing');
    expect(r.body.notices.find((n: { code: string }) => n.code === 'speech_missing')).toMatchObject({ items: [{ media_id: 'garden-walk' }], item_count: 1 });
  });

  it('names a few of the items it means and counts the rest, in both languages', () => {
    const items = [{ media_id: 'memo', title: 'Memo' }, { media_id: 'talk', title: null }, { media_id: 'walk', title: 'Walk' }];
    const gaps = { words: true, imageTextModel: null, speechModel: WHISPER, untranscribed: { total: 5, items } };
    expect(searchNotices(gaps, 'en')[0]!.message).toContain('cannot be found: “Memo”, “talk”, “Walk” and 2 more. Install');
    expect(searchNotices(gaps, 'de')[0]!.message).toContain('nicht auffindbar: „Memo“, „talk“, „Walk“ und 2 weitere. Installiere');
  });

  it('keeps the notices when nothing matches, and has none for a query without words', async () => {
    const none = await search({ query: 'xylophone' });
    expect(none.body.results).toEqual([]);
    expect(codes(none.body)).toEqual(['image_text_missing', 'speech_missing']);
    for (const query of ['the', '!!!']) expect((await search({ query })).body, query).toEqual({ results: [], notices: [], corrected: [], searched_query: null, original_query: null });
  });

  it('writes the notices in German when search_language or Accept-Language says de; the body field wins', async () => {
    const byField = await search({ query: 'Kuchen', search_language: 'de' });
    expect(byField.body.notices.map((n: { message: string }) => n.message)).toEqual([
      expect.stringMatching(/^Was nur zu sehen ist .* kein Bild-Text-Modell installiert\. Installiere /),
      expect.stringMatching(/^Manche Einträge enthalten Sprache, die nie transkribiert wurde.*nicht auffindbar: „Garden talk“\. Installiere/),
    ]);
    const byHeader = await search({ query: 'Kuchen' }, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(byHeader.body.notices).toEqual(byField.body.notices);
    const fieldWins = await search({ query: 'Kuchen', search_language: 'en' }, { 'accept-language': 'de' });
    expect(fieldWins.body.notices[0].message).toMatch(/^What is only seen/);
    expect((await search({ query: 'Kuchen', search_language: 'fr' })).status).toBe(422);
  });

  it('tells of an untranscribed item as soon as it is stored', async () => {
    expect(codes((await s.call('POST', '/search', { form: { collection: 'heard', query: 'garden' } })).body)).toEqual(['image_text_missing']);
    storeUntranscribed(s, 'heard', 'late-talk');
    expect(codes((await s.call('POST', '/search', { form: { collection: 'heard', query: 'garden' } })).body)).toEqual(['image_text_missing', 'speech_missing']);
    // And forgets it when the item goes.
    expect((await s.call('DELETE', '/collections/heard/items/late-talk')).status).toBeLessThan(300);
    expect(codes((await s.call('POST', '/search', { form: { collection: 'heard', query: 'garden' } })).body)).toEqual(['image_text_missing']);
  });

});
