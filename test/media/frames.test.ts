import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../src/media/errors.js';
import { runTool } from '../../src/media/run.js';
import { extractFrame, extractFrames, planExtraction, type VideoFrame } from '../../src/media/frames.js';
import { writeThumbnail } from '../../src/media/thumbnails.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

let corpus: CorpusManifest;
let tmp: string;
beforeAll(async () => {
  corpus = await ensureCorpus();
  tmp = await mkdtemp(join(process.cwd(), 'test', '.tmp', 'frames-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function pixel(f: VideoFrame, x: number, y: number): number[] {
  const i = (y * f.width + x) * 3;
  return [f.data[i], f.data[i + 1], f.data[i + 2]];
}

/** The slide colour expected at time t (a background pixel away from the text). */
function expectSlideColour(f: VideoFrame): void {
  const slide = corpus.slides.slides.find((s) => f.time >= s.start && f.time < s.end)!;
  const got = pixel(f, 8, 8);
  got.forEach((v, i) => {
    expect(Math.abs(v - slide.color[i]), `colour at ${f.time}s`).toBeLessThan(14);
  });
}

async function collect(it: AsyncIterable<VideoFrame>): Promise<VideoFrame[]> {
  const out: VideoFrame[] = [];
  for await (const f of it) out.push(f);
  return out;
}

describe('planExtraction', () => {
  it('decodes dense runs in one pass and isolated times by seeking', () => {
    expect(planExtraction([1, 2, 3, 60, 61, 200])).toEqual([
      { mode: 'pass', times: [1, 2, 3] },
      { mode: 'pass', times: [60, 61] },
      { mode: 'seek', times: [200] },
    ]);
    expect(planExtraction([10, 30])).toEqual([
      { mode: 'seek', times: [10] },
      { mode: 'seek', times: [30] },
    ]);
  });
});

describe('extractFrames', () => {
  it('seeks to far-apart times and returns full-size RGB frames with the right slide colour', async () => {
    const frames = await collect(extractFrames(corpus.slides.path, [20, 4, 12]));
    expect(frames.map((f) => f.time)).toEqual([4, 12, 20]);
    for (const f of frames) {
      expect([f.width, f.height, f.data.length]).toEqual([640, 360, 640 * 360 * 3]);
      expectSlideColour(f);
    }
  });

  it('decodes a dense run in one pass, scaled to maxWidth, switching colour at the cut', async () => {
    const times = Array.from({ length: 20 }, (_, i) => 6 + i * 0.25); // 6 .. 10.75
    const frames = await collect(extractFrames(corpus.slides.path, times, { maxWidth: 320 }));
    expect(frames.map((f) => f.time)).toEqual(times);
    for (const f of frames) {
      expect([f.width, f.height]).toEqual([320, 180]);
      expectSlideColour(f);
    }
  });

  it('decodes times that come as they are known, in batches, to the very frames of the whole list', async () => {
    const times = [0.5, 1, 1.5, 2, 4, 6.5, 7, 9, 9.25, 13, 13.5, 17.9];
    const listed = await collect(extractFrames(corpus.slides.path, times, { maxWidth: 320 }));
    const coming = (async function* () {
      for (const t of times) {
        await new Promise((r) => setTimeout(r, 5));
        yield t;
      }
    })();
    const streamed = await collect(extractFrames(corpus.slides.path, coming, { maxWidth: 320 }));
    expect(streamed.map((f) => f.time)).toEqual(listed.map((f) => f.time));
    for (const [i, f] of streamed.entries()) expect(Buffer.from(f.data).equals(Buffer.from(listed[i]!.data)), `frame at ${f.time}`).toBe(true);
  });

  it('applies rotation, clamps times past the end and refuses audio-only files', async () => {
    const rot = await extractFrame(corpus.rotated.path, 1);
    expect([rot.width, rot.height]).toEqual([corpus.rotated.displayWidth, corpus.rotated.displayHeight]);
    // Stored top half red, turned 90° clockwise: red ends up on the right.
    expect(pixel(rot, rot.width - 4, 10)[0]).toBeGreaterThan(200);
    expect(pixel(rot, 4, 10)[2]).toBeGreaterThan(200);

    const late = await extractFrame(corpus.slides.path, 99);
    expect(late.time).toBeLessThan(24);
    expectSlideColour(late);

    await expect(extractFrame(corpus.speech.path, 1)).rejects.toSatisfy((e: unknown) => e instanceof MediaError && e.code === 'no_video');
  });
});

describe('extractFrames on an unindexed container', () => {
  it('still returns the frame at the requested time from MPEG-TS (seeks there land late and are retried)', async () => {
    const ts = join(tmp, 'slides.ts');
    await runTool('ffmpeg', ['-v', 'error', '-y', '-i', corpus.slides.path, '-map', '0:v', '-c', 'copy', '-f', 'mpegts', ts]);
    const seeks = await collect(extractFrames(ts, [7.9, 15.9], { maxWidth: 64 }));
    const pass = await collect(extractFrames(ts, [7.5, 7.7, 7.9, 8.1], { maxWidth: 64 }));
    for (const f of [...seeks, ...pass]) expectSlideColour(f);
  });
});

describe('writeThumbnail', () => {
  it('writes a small JPEG of the requested moment', async () => {
    const out = join(tmp, 'thumb.jpg');
    const t = await writeThumbnail(corpus.slides.path, 10, out, { width: 320 });
    expect(t).toMatchObject({ path: out, width: 320, height: 180, time: 10 });
    const jpg = await readFile(out);
    expect([...jpg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpg.length).toBeLessThan(30_000);
  });

  it('keeps a tall frame whole within the square: as high as a wide one is wide, never cropped (issue 42)', async () => {
    const tall = join(tmp, 'tall.mp4');
    await runTool('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=540x1200:d=1:r=5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', tall]);
    const out = join(tmp, 'tall.jpg');
    const t = await writeThumbnail(tall, 0.5, out, { width: 320 });
    expect(t).toMatchObject({ width: 144, height: 320 });
    expect(await sharp(out).metadata()).toMatchObject({ width: 144, height: 320 });
  });
});
