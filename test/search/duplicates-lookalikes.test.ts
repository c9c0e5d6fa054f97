/**
 * Issue 42: duplicates a person can trust. Look-alikes that grey frame hashes cannot tell apart are no copies:
 * title cards of other colours, words and voices ("Brot backen" and "Marienplatz"), a folder of caption clips
 * in other colours and tones, one test pattern in other colours, two videos behind one black intro, a photo
 * and its recoloured version. Real copies still group: real footage re-encoded, rescaled and trimmed with its
 * sound, a narrated title card re-encoded (its frames say little; its words and voice agree), a recompressed photo.
 * The judged set of scripts/bench-duplicates.ts is larger (77 items); this is its core, small enough for the suite.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blackIntro, captionClip, copyVideo, lavfiVideo, narratedSlide, photo, REAL_FOOTAGE, recolouredPattern } from '../support/picture-media.js';
import { agedFiles } from '../support/folder-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';

interface Group { items: { media_id: string; title: string }[]; similarity: number }

const CLIPS: [string, number][] = [['red', 330], ['green', 440], ['blue', 550], ['yellow', 660]];

describe('duplicates: look-alikes are no copies, real copies are', () => {
  let s: TestServer;
  let base: string;
  let titles: string[][];

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-lookalikes-')));
    // The sources of the black intros lie beside the folder, not in it.
    const media = join(base, 'media');
    mkdirSync(media);
    const at = (name: string) => join(media, name);
    await Promise.all([
      narratedSlide(at('brot-backen.mp4'), { colour: '0x8B5A2B', caption: 'Brot backen', speech: 'Heute backen wir zusammen ein frisches Brot mit Sauerteig.', lang: 'de' }),
      narratedSlide(at('gruesse-aus-muenchen.mp4'), { colour: '0x1E50B4', caption: 'Marienplatz', speech: 'Viele Grüße aus München, wir stehen gerade auf dem Marienplatz.', lang: 'de' }),
      ...CLIPS.map(([colour, tone], i) => captionClip(at(`clip-${colour}.mp4`), { colour, caption: `Clip ${i + 1}`, tone, seconds: 4 })),
      recolouredPattern(at('bars.mp4'), 'testsrc2', 0, 4),
      recolouredPattern(at('bars-green.mp4'), 'testsrc2', 120, 4),
      copyVideo(REAL_FOOTAGE, at('cockatoo.mp4'), { crf: 20, sound: true }),
      photo('astronaut.png', at('astronaut.jpg')),
      photo('astronaut.png', at('astronaut-small.jpg'), { width: 256, quality: 40 }),
      lavfiVideo(join(base, 'mandelbrot.mp4'), 'mandelbrot', 6),
      lavfiVideo(join(base, 'life.mp4'), 'life', 6),
    ]);
    await Promise.all([
      copyVideo(at('cockatoo.mp4'), at('cockatoo-lowq.mp4'), { crf: 36, sound: true }),
      copyVideo(at('cockatoo.mp4'), at('cockatoo-trim.mp4'), { from: 3.3, to: 11, sound: true }),
      copyVideo(at('brot-backen.mp4'), at('brot-backen-copy.mp4'), { crf: 34, sound: true }),
      blackIntro(join(base, 'mandelbrot.mp4'), at('intro-mandelbrot.mp4'), 3, 300),
      blackIntro(join(base, 'life.mp4'), at('intro-life.mp4'), 3, 500),
      sharp(at('astronaut.jpg')).modulate({ hue: 150 }).jpeg({ quality: 90 }).toFile(at('astronaut-recoloured.jpg')),
    ]);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: base } });
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    agedFiles(media);
    const f = await s.call('POST', '/collections/home/folders', { json: { path: media, watch: false } });
    const scan = await settledTask(s, f.body.scan_task_id, 400_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    const r = await s.call('GET', '/collections/home/duplicates');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    titles = (r.body.groups as Group[]).map((g) => g.items.map((i) => i.title).sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
  }, 500_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('groups exactly the real copies', () => {
    expect(titles).toEqual([
      ['astronaut', 'astronaut-small'],
      ['brot-backen', 'brot-backen-copy'],
      ['cockatoo', 'cockatoo-lowq', 'cockatoo-trim'],
    ]);
  });

  it('pairs no title cards, caption clips, recoloured patterns or black intros', () => {
    const grouped = new Set(titles.flat());
    for (const t of ['gruesse-aus-muenchen', ...CLIPS.map(([c]) => `clip-${c}`), 'bars', 'bars-green', 'intro-mandelbrot', 'intro-life', 'astronaut-recoloured']) {
      expect(grouped.has(t), t).toBe(false);
    }
  });
});
