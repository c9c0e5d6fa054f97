/**
 * Issue 42: the original above its copies. A slide talk with its subtitles beside it, a trimmed copy and a
 * smaller re-encode (neither has the subtitles): a moment all three share is one result, the original's, with
 * the copies it is also in and their own times (the trim's 2 s earlier: where the copies line up is kept with
 * their pair).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyVideo } from '../support/picture-media.js';
import { agedFiles } from '../support/folder-media.js';
import { srt } from '../support/subtitled-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';
import { mergeCopies, type SearchResult } from '../../src/services/search/results.js';

const run = promisify(execFile);
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** Two slides of 10 s each: a title on a coloured card with a pattern beside it. */
async function slideTalk(out: string): Promise<void> {
  const slide = (colour: string, title: string) => `color=c=${colour}:s=640x360:r=10:d=10,drawtext=fontfile=${FONT}:text='${title}':fontsize=44:fontcolor=white:x=40:y=60`;
  const graph = `${slide('0x1E3A5F', 'Budget review')}[a];${slide('0x3F5F1E', 'Solar panels')}[b];[a][b]concat=n=2:v=1[v]`;
  await run('ffmpeg', ['-v', 'error', '-y', '-filter_complex', graph, '-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out]);
}

interface Result { media_id: string; title: string; start_time: number; copies?: { media_id: string; title: string; start_time: number }[] }

describe('search: the original above its copies', () => {
  let s: TestServer;
  let base: string;
  const search = async (query: string) => {
    const r = await s.call('POST', '/search', { json: { collection: 'talks', query } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.results as Result[];
  };

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-copies-')));
    const media = join(base, 'media');
    mkdirSync(media);
    await slideTalk(join(media, 'talk.mp4'));
    writeFileSync(join(media, 'talk.srt'), srt([[1, 5, 'The budget review shows spending went up this year.'], [11, 15, 'Solar panels on the roof made more power than we used.']]));
    await Promise.all([copyVideo(join(media, 'talk.mp4'), join(media, 'talk-trim.mp4'), { from: 2 }), copyVideo(join(media, 'talk.mp4'), join(media, 'talk-small.mp4'), { width: 320, crf: 30 })]);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: base } });
    await s.call('POST', '/collections', { json: { collection_id: 'talks', name: 'Talks' } });
    agedFiles(media);
    const f = await s.call('POST', '/collections/talks/folders', { json: { path: media, watch: false } });
    const scan = await settledTask(s, f.body.scan_task_id, 300_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    const groups = (await s.call('GET', '/collections/talks/duplicates')).body.groups as { items: { title: string }[] }[];
    expect(groups.map((g) => g.items.map((i) => i.title).sort())).toEqual([['talk', 'talk-small', 'talk-trim']]);
  }, 400_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('shows a moment the copies share once, as the original, with the copies and their own times', async () => {
    const results = await search('solar panels');
    const solar = results.filter((r) => ['talk', 'talk-trim', 'talk-small'].includes(r.title));
    expect(solar).toHaveLength(1);
    expect(solar[0]!.title).toBe('talk');
    expect(solar[0]!.start_time).toBeGreaterThanOrEqual(10);
    const copies = new Map(solar[0]!.copies!.map((c) => [c.title, c.start_time]));
    expect([...copies.keys()].sort()).toEqual(['talk-small', 'talk-trim']);
    // The trim starts 2 s into the talk: its moment is 2 s earlier in its own time.
    expect(copies.get('talk-trim')!).toBeCloseTo(solar[0]!.start_time - 2, 0);
  });

  it('keeps moments of one copy that are not the same moment apart', async () => {
    const budget = (await search('budget review')).filter((r) => r.title.startsWith('talk'));
    expect(budget).toHaveLength(1);
    expect(budget[0]!.title).toBe('talk');
    expect(budget[0]!.start_time).toBeLessThan(10);
  });
});

describe('mergeCopies', () => {
  const hit = (media_id: string, start_time: number, score: number) => ({ media_id, start_time, score, title: media_id, audio: [], computer_vision: [] }) as unknown as SearchResult;
  const places = new Map([['trim', { item: 2, lead: 1, offset: 2 }], ['orig', { item: 1, lead: 1, offset: 0 }], ['small', { item: 3, lead: 1, offset: 0 }]]);
  it('puts the original where its best copy ranked, and keeps other moments and other items apart', () => {
    const out = mergeCopies([hit('trim', 8, 0.9), hit('other', 3, 0.8), hit('small', 10.5, 0.7), hit('orig', 10, 0.6), hit('orig', 30, 0.5)], (r) => places.get(r.media_id));
    expect(out.map((r) => [r.media_id, r.start_time, r.score, r.copies?.map((c) => c.media_id)])).toEqual([
      ['orig', 10, 0.9, ['trim', 'small']],
      ['other', 3, 0.8, undefined],
      ['orig', 30, 0.5, undefined],
    ]);
  });

  it('names each copy once and never the shown item itself', () => {
    // Two episodes of each item hold the moment (a slide seen through two episodes).
    const out = mergeCopies([hit('orig', 12, 0.9), hit('trim', 10, 0.8), hit('trim', 10, 0.7), hit('orig', 12, 0.6)], (r) => places.get(r.media_id));
    expect(out.map((r) => [r.media_id, r.copies?.map((c) => [c.media_id, c.start_time])])).toEqual([['orig', [['trim', 10]]]]);
  });
});
