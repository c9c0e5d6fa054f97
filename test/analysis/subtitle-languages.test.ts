import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { callJson, mcpClient, textOf } from '../mcp/clients.js';
import { makeSidecarTalk, makeTwoTrackFilm } from '../support/subtitled-media.js';
import { describeAnalyzeResult } from '../../src/cli/present.js';

/** Issue 31, every subtitle language: each track is kept, searched in its own language and readable by `?language=`. */

type Line = { start: number; end: number; text: string };
type Episode = { audio: Line[]; summary: string; title: string };
type Hit = { media_id: string; start_time: number; content: string; audio: Line[] };

describe('subtitle tracks in every language', () => {
  let s: TestServer;
  let film: string;
  let talk: string;
  beforeAll(async () => {
    s = await startTestServer();
    film = await makeTwoTrackFilm(s.mediaDir);
    talk = await makeSidecarTalk(s.mediaDir);
    await s.call('POST', '/collections', { json: { collection_id: 'subs', name: 'Subtitles' } });
  });
  afterAll(() => s.close());

  async function finished(taskId: string) {
    return waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${taskId}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 90_000, 'task');
  }
  async function index(path: string, mediaId: string) {
    const r = await s.call('POST', '/index', { form: { collection: 'subs', index_language: 'en', video: { path, media_id: mediaId } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await finished(r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    return t;
  }
  const search = async (query: string, extra: Record<string, unknown> = {}): Promise<Hit[]> => {
    const r = await s.call('POST', '/search', { form: { query, collection: 'subs', ...extra } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.results;
  };
  const analysis = (mediaId: string, query = '') => s.call('GET', `/collections/subs/items/${mediaId}/analysis${query}`);
  const lines = (episodes: Episode[]) => episodes.flatMap((e) => e.audio);

  it('indexes both tracks of an MKV: the English one is the transcript, the German one is listed', async () => {
    const t = await index(film, 'film');
    expect(t.result.transcript_source).toBe('embedded');
    const a = (await analysis('film')).body;
    expect(a).toMatchObject({ language: 'en', subtitle_languages: ['en', 'de'], transcript_language: 'en' });
    expect(lines(a.episodes).map((l) => l.text)).toEqual(['Good morning from Berlin.', 'In the evening it will rain.']);
  });

  it('finds a German word form by German stemming, at the German line', async () => {
    // "regnet" meets "regnen" only through the German stems; the English track says "rain".
    const hits = await search('regnet');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ media_id: 'film', content: 'Am Abend wird es regnen.' });
    expect(hits[0].start_time).toBeCloseTo(6.8, 2);
    // The result's audio stays the transcript.
    expect(hits[0].audio.map((l) => l.text).join(' ')).not.toContain('regnen');
    const abend = await search('Abend');
    expect(abend[0].start_time).toBeCloseTo(6.8, 2);
  });

  it('still finds the English words at the English line', async () => {
    const hits = await search('rain', { media_id: 'film' });
    expect(hits[0]).toMatchObject({ media_id: 'film', content: 'In the evening it will rain.' });
    expect(hits[0].start_time).toBeCloseTo(6.5, 2);
    expect((await search('raining evening', { media_id: 'film' }))[0].start_time).toBeCloseTo(6.5, 2);
  });

  it('shows the German lines with ?language=de in any spelling of German', async () => {
    for (const tag of ['de', 'ger', 'deu', 'de-DE']) {
      const r = await analysis('film', `?language=${tag}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ subtitle_languages: ['en', 'de'], transcript_language: 'de' });
      const de = lines(r.body.episodes);
      expect(de.map((l) => l.text)).toEqual(['Guten Morgen aus Berlin.', 'Am Abend wird es regnen.']);
      expect(de[1].start).toBeCloseTo(6.8, 2);
      expect(de[1].end).toBeCloseTo(9.5, 2);
    }
    // The transcript's own language is the transcript.
    expect((await analysis('film', '?language=en')).body.transcript_language).toBe('en');
  });

  it('tells the summaries from the track asked for, and says in which language they are (issue 42)', async () => {
    const english = (await analysis('film')).body;
    expect(english.summary_language).toBe('en');
    expect(english.video_summary).toContain('Good morning from Berlin.');
    const german = (await analysis('film', '?language=de')).body;
    expect(german.summary_language).toBe('de');
    expect(german.video_summary).toContain('Guten Morgen aus Berlin.');
    expect(german.video_summary).not.toMatch(/morning|rain/);
    const said = german.episodes.filter((e: Episode) => e.audio.length > 0);
    expect(said.length).toBeGreaterThan(0);
    for (const e of said) {
      expect(e.summary).toMatch(/Guten Morgen|Abend/);
      expect(e.title).toBe(e.summary);
    }
  });

  it('answers a language the item lacks with a 404 naming the ones it has, and a malformed one with a 422', async () => {
    const missing = await analysis('film', '?language=fr');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toContain('en, de');
    expect(missing.body.errors).toEqual([{ field: 'language', message: expect.stringContaining('"fr"') }]);
    const bad = await analysis('film', '?language=not%20a%20language');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('language');
    // The web page asks in German and gets the same in German.
    const german = await s.call('GET', '/collections/subs/items/film/analysis?language=fr', { headers: { 'accept-language': 'de' } });
    expect(german.body.detail).toBe('language: Kein Transkript und keine Untertitel in „fr“: der Eintrag hat Zeilen in en, de');
    const badGerman = await s.call('GET', '/collections/subs/items/film/analysis?language=x1', { headers: { 'accept-language': 'de' } });
    expect(badGerman.body.errors[0]).toEqual({ field: 'language', message: 'muss eine Sprachangabe wie de, de-DE oder ger sein' });
  });

  it('indexes .en.srt and .de.srt sidecars the same way', async () => {
    const t = await index(talk, 'talk');
    expect(t.result.transcript_source).toBe('sidecar');
    const a = (await analysis('talk')).body;
    expect(a).toMatchObject({ subtitle_languages: ['en', 'de'], transcript_language: 'en' });
    expect(lines(a.episodes).map((l) => l.text)).toEqual(['The cat sleeps on the sofa.']);
    expect(lines((await analysis('talk', '?language=de')).body.episodes).map((l) => l.text)).toEqual(['Die Katzen schlafen auf dem Sofa.']);
    // "Katze" and "Katzen" share only their German stem.
    const hits = await search('Katze');
    expect(hits[0]).toMatchObject({ media_id: 'talk', content: 'Die Katzen schlafen auf dem Sofa.' });
    expect(hits[0].start_time).toBeCloseTo(2.4, 2);
    expect((await search('sleeping cats'))[0].start_time).toBeCloseTo(2, 2);
  });

  it('gives the German lines to an agent: get_analysis lists the languages, get_transcript takes one', async () => {
    const client = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      expect(await callJson(client, 'get_analysis', { collection: 'subs', media_id: 'film' })).toMatchObject({ subtitle_languages: ['en', 'de'] });
      const de = textOf(await client.callTool({ name: 'get_transcript', arguments: { collection: 'subs', media_id: 'film', language: 'de' } }));
      expect(de).toContain('Language: de (also: en)');
      expect(de).toContain('[0:06–0:09] Am Abend wird es regnen.');
      const fr = await client.callTool({ name: 'get_transcript', arguments: { collection: 'subs', media_id: 'film', language: 'fr' } });
      expect(fr.isError).toBe(true);
      expect(textOf(fr)).toContain('en, de');
    } finally {
      await client.close();
    }
  });

  it('keeps the other languages searchable through a rebuild of the text index', async () => {
    s.vidx.store.db.exec('UPDATE text_indexes SET ready = 0');
    s.vidx.searchIndex.rebuildText();
    expect((await search('regnet'))[0].start_time).toBeCloseTo(6.8, 2);
    expect((await search('Katze'))[0].media_id).toBe('talk');
  });

  it('reads an item indexed before every track was kept as having only its transcript language', async () => {
    const pk = s.vidx.store.items.find(s.vidx.store.collections.findById('subs')!.pk, 'talk')!.pk;
    s.vidx.store.db.prepare('UPDATE item_analysis SET subtitle_languages = NULL WHERE item_pk = ?').run(pk);
    s.vidx.store.db.prepare('DELETE FROM subtitle_lines WHERE episode_pk IN (SELECT pk FROM episodes WHERE item_pk = ?)').run(pk);
    const a = (await analysis('talk')).body;
    expect(a).toMatchObject({ subtitle_languages: ['en'], transcript_language: 'en' });
    expect((await analysis('talk', '?language=de')).status).toBe(404);
  });

  it('returns every track from POST /analyze: the default one as the transcript, the others beside it', async () => {
    const r = await s.call('POST', '/analyze', { form: { video: { path: film } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await finished(r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result).toMatchObject({ language: 'en', transcript_source: 'embedded', subtitle_languages: ['en', 'de'] });
    expect(t.result.audio_summary.map((a: { text: string }) => a.text)).toEqual(['Good morning from Berlin.', 'In the evening it will rain.']);
    expect(t.result.subtitle_tracks).toEqual([
      { language: 'de', source: 'embedded', lines: [{ start: 1.2, end: 3.8, text: 'Guten Morgen aus Berlin.' }, { start: 6.8, end: 9.5, text: 'Am Abend wird es regnen.' }] },
    ]);
    // `vidx analyze` says the other languages are there.
    expect(describeAnalyzeResult(t.result)).toContain('\nsubtitles: en (the transcript), de\n');
  });
});
