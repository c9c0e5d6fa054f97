/**
 * Issue 42, as new users reported it on a fresh install (no models pulled): a narrated slide talk whose slide
 * changes at 12 s while the sentence before runs on to 12.5 s and the one about the new slide starts at 13 s,
 * and a trimmed copy that starts two seconds before that slide change. A moment starts where its slide or
 * line starts, at the same second in Search, the chapters and Explore, and its picture is the one on screen
 * then.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyVideo } from '../support/picture-media.js';
import { agedFiles, makePhoto, makeSpeech } from '../support/folder-media.js';
import { makeSlideTalk, TALK_SLIDES } from '../support/slide-talk.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

interface Result { media_id: string; title: string; start_time: number; image_url: string; content: string; media_type: string; copies?: { title: string; start_time: number }[] }
interface Chapter { start: number; end: number; thumbnail_url: string | null }

const [BUDGET, SOLAR] = TALK_SLIDES;
/** Where the solar slide starts in the talk; the trim is the talk from 10 s to 16 s (one chapter). */
const SLIDE_CHANGE = 12;
const TRIM_FROM = 10;
const TRIM_TO = 16;

describe('a narrated slide talk: one time and the picture on screen for each moment', () => {
  let s: TestServer;
  let base: string;
  const ids = new Map<string, string>();

  const search = async (query: string, mediaId?: string): Promise<Result[]> => {
    const r = await s.call('POST', '/search', { json: { collection: 'talks', query, ...(mediaId ? { media_id: mediaId } : {}) } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.results;
  };
  const chapters = async (title: string): Promise<Chapter[]> => (await s.call('GET', `/collections/talks/items/${ids.get(title)}/analysis`)).body.episodes;
  const clusters = async (query: string): Promise<Result[]> => {
    const res = await fetch(`${s.url}/search_clusters`, { method: 'POST', headers: { 'x-api-key': s.adminKey }, body: new URLSearchParams({ body: JSON.stringify({ query, collection: 'talks' }) }) });
    expect(res.status).toBe(200);
    return (await res.text()).split('\x1e').filter(Boolean).flatMap((chunk) => JSON.parse(chunk).cluster_results as Result[]);
  };
  /** The mean colour of a thumbnail's lower right corner, where no title is drawn. */
  const cornerColour = async (url: string): Promise<number[]> => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const image = sharp(Buffer.from(await res.arrayBuffer()));
    const { width, height } = await image.metadata();
    const { channels } = await image.extract({ left: Math.round(width! * 0.7), top: Math.round(height! * 0.7), width: Math.round(width! * 0.25), height: Math.round(height! * 0.25) }).stats();
    return channels.slice(0, 3).map((c) => c.mean);
  };
  const near = (colour: number[], slide: typeof SOLAR) => Math.max(...colour.map((c, i) => Math.abs(c - slide.colour[i]!))) < 24;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-moments-')));
    const media = join(base, 'media');
    mkdirSync(media);
    const talk = await makeSlideTalk(media);
    await Promise.all([
      copyVideo(talk, join(media, 'talk-trim.mp4'), { from: TRIM_FROM, to: TRIM_TO, sound: true }),
      makeSpeech(join(media, 'voice memo.m4a'), 'Remember to clean the solar panels on Friday'),
      makePhoto(join(media, 'roof.jpg'), 'SOLAR ROOF'),
    ]);
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: base } });
    await s.call('POST', '/collections', { json: { collection_id: 'talks', name: 'Talks' } });
    agedFiles(media);
    const f = await s.call('POST', '/collections/talks/folders', { json: { path: media, watch: false } });
    const scan = await settledTask(s, f.body.scan_task_id, 300_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    for (const item of (await s.call('GET', '/collections/talks/items')).body.items) ids.set(item.title, item.media_id);
  }, 400_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('starts the second slide’s moment at the slide change, in Search, the chapters and Explore alike', async () => {
    const found = (await search('solar panels')).find((r) => r.title === 'talk')!;
    expect(found.start_time).toBe(SLIDE_CHANGE);
    const chapter = (await chapters('talk')).find((c) => c.start <= found.start_time && found.start_time < c.end)!;
    expect(chapter.start).toBe(found.start_time);
    const moment = (await clusters('solar panels')).find((r) => r.title === 'talk')!;
    expect(moment.start_time).toBe(found.start_time);
    // The trim shares the moment: named once, at its own second, and the talk is no copy of itself.
    expect(found.copies?.map((c) => [c.title, c.start_time])).toEqual([['talk-trim', SLIDE_CHANGE - TRIM_FROM]]);
  });

  it('starts every chapter where its slide or its first line starts', async () => {
    const starts = (await chapters('talk')).map((c) => c.start);
    expect(starts[0]).toBe(0);
    // The line at 6.5 s opens the second chapter; the solar slide the third; the line at 18.5 s may open a fourth.
    for (const start of starts.slice(1)) expect([6.5, SLIDE_CHANGE, 13, 18.5]).toContain(start);
    expect(starts).toContain(SLIDE_CHANGE);
  });

  it('starts a result for words only said at the line that says them', async () => {
    const found = (await search('more power than we used')).find((r) => r.title === 'talk')!;
    expect(found.start_time).toBe(13);
  });

  it('shows the slide on screen at the start of the moment, in the talk and in its trim', async () => {
    const inTalk = (await search('solar panels')).find((r) => r.title === 'talk')!;
    expect(near(await cornerColour(inTalk.image_url), SOLAR)).toBe(true);
    // Searched in the trim alone, its own moment shows: the solar slide starts 2 s into it.
    const inTrim = (await search('solar panels', ids.get('talk-trim')))[0]!;
    expect(inTrim.title).toBe('talk-trim');
    expect(inTrim.start_time).toBeCloseTo(SLIDE_CHANGE - TRIM_FROM, 0);
    const colour = await cornerColour(inTrim.image_url);
    expect(near(colour, SOLAR), JSON.stringify(colour)).toBe(true);
    // The budget slide's own moment still shows the budget slide.
    const budget = (await search('budget review', ids.get('talk-trim')))[0]!;
    expect(near(await cornerColour(budget.image_url), BUDGET)).toBe(true);
  });

  it('keeps a chapter’s thumbnail inside the chapter', async () => {
    for (const c of await chapters('talk')) {
      const slide = c.start >= SLIDE_CHANGE ? SOLAR : BUDGET;
      expect(near(await cornerColour(c.thumbnail_url!), slide), `${c.start}`).toBe(true);
    }
  });

  it('still shows a photo and the waveform of a voice memo', async () => {
    const photo = (await search('solar roof')).find((r) => r.media_type === 'image')!;
    expect(photo.image_url).not.toBe('');
    await cornerColour(photo.image_url);
    const memo = (await search('voice memo')).find((r) => r.media_type === 'audio')!;
    expect(memo.image_url).not.toBe('');
    await cornerColour(memo.image_url);
  });
});
