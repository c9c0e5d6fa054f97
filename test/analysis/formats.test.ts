import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/**
 * Formats phones, cameras and browsers write that vidx already reads, each made by ffmpeg at run time and
 * indexed through a bound folder end to end (scan, probe, analysis, thumbnail), so none quietly stops working.
 */

// Read once at collection time: it.skipIf needs to know before the tests run which encoders this ffmpeg has.
const ENCODERS = new Set(
  execFileSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[1])
    .filter((n): n is string => Boolean(n)),
);
// SVT-AV1 is far faster than libaom; either makes an AV1 file.
const AV1 = ENCODERS.has('libsvtav1') ? ['-c:v', 'libsvtav1', '-preset', '12'] : ['-c:v', 'libaom-av1', '-cpu-used', '8', '-row-mt', '1'];

interface Case {
  /** The file's name in the bound folder. */
  file: string;
  /** What the case shows, as the test's title. */
  what: string;
  /** Encoders the file needs; a missing one skips the case with its name. */
  needs: string[];
  /** ffmpeg arguments between the common head and the output file. */
  args: string[];
  type: 'video' | 'audio' | 'image';
  /** The duration the file was made with, in seconds. */
  seconds: number;
  /** The thumbnail is taller than wide (a phone held upright). */
  portrait?: boolean;
  /** Output options of a second, stream-copy pass (tags ffmpeg only writes when it is not encoding). */
  remux?: string[];
}

const picture = (d: number, size = '320x180', rate = 15) => ['-f', 'lavfi', '-i', `testsrc2=s=${size}:r=${rate}:d=${d}`];
const tone = (d: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${d}`];

const CASES: Case[] = [
  {
    file: 'portrait.mp4', what: 'a phone video stored landscape with a 90° rotation', needs: ['libx264', 'aac'], type: 'video', seconds: 3, portrait: true,
    args: [...picture(3), ...tone(3), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    // ffmpeg 5 has no -display_rotation; on a stream copy its mp4 muxer turns the `rotate` tag (read counter-clockwise)
    // into the display matrix a phone writes, here -90: shown turned 90° clockwise.
    remux: ['-metadata:s:v:0', 'rotate=270'],
  },
  {
    file: 'vfr.mp4', what: 'variable frame rate (1 s at 10 fps, then 2 s at 30 fps)', needs: ['libx264'], type: 'video', seconds: 3,
    // 70 frames at 30 fps in: the first ten are spread over a second, the other sixty keep 1/30 s, and the muxer keeps the gaps.
    args: [...picture(70 / 30, '320x180', 30), '-vf', "setpts='if(lt(N,10),N/10,1+(N-10)/30)/TB'", '-fps_mode', 'vfr', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  },
  {
    file: 'hevc10.mp4', what: '10-bit HEVC (hvc1, as iPhones record HDR)', needs: ['libx265'], type: 'video', seconds: 2,
    args: [...picture(2), '-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-x265-params', 'log-level=error', '-tag:v', 'hvc1'],
  },
  {
    file: 'av1.mp4', what: 'AV1', needs: [AV1[1]!], type: 'video', seconds: 2,
    args: [...picture(2), ...AV1, '-pix_fmt', 'yuv420p'],
  },
  {
    file: 'browser.webm', what: 'VP9 + Opus WebM (a browser recording)', needs: ['libvpx-vp9', 'libopus'], type: 'video', seconds: 3,
    args: [...picture(3), ...tone(3), '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k', '-c:a', 'libopus'],
  },
  {
    // An animated GIF is a moving picture: sharp leaves multi-page pictures to ffprobe, which reads it as video.
    file: 'loop.gif', what: 'an animated GIF, indexed as a video', needs: ['gif'], type: 'video', seconds: 2,
    args: [...picture(2, '160x90', 10), '-f', 'gif'],
  },
  {
    file: 'memo.m4a', what: 'an M4A (AAC) voice memo', needs: ['aac'], type: 'audio', seconds: 3,
    args: [...tone(3), '-c:a', 'aac', '-b:a', '64k'],
  },
  {
    file: 'voice.opus', what: 'an Opus voice note (.opus, as messengers send)', needs: ['libopus'], type: 'audio', seconds: 3,
    args: [...tone(3), '-c:a', 'libopus', '-b:a', '32k'],
  },
  {
    file: 'voice.ogg', what: 'an Opus voice note in .ogg', needs: ['libopus'], type: 'audio', seconds: 3,
    args: [...tone(3), '-c:a', 'libopus', '-b:a', '32k'],
  },
];

const missing = (c: Case): string[] => c.needs.filter((e) => !ENCODERS.has(e));

/** Runs `jobs` at most `width` at a time: the machine has two cores and ffmpeg would take both per file. */
async function inParallel(jobs: (() => Promise<unknown>)[], width: number): Promise<void> {
  const queue = [...jobs];
  await Promise.all(Array.from({ length: width }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await job();
  }));
}

interface Item {
  type: string;
  duration: number | null;
  thumbnail_url: string | null;
  folder_path?: string | null;
}

describe('formats that already work stay indexed end to end', () => {
  let s: TestServer;
  let base: string;
  let scan: { status: string; error?: { message: string } | null; result?: { added: number; failed: { path: string; reason: string }[] } };
  const items = new Map<string, Item>();

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-formats-')));
    const media = join(base, 'media');
    mkdirSync(media);
    const made = CASES.filter((c) => missing(c).length === 0);
    // Plain ffmpeg, not the server's tool runner: a server in this process would hold its file-access rule over it.
    const ffmpeg = (args: string[]) => promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
    await inParallel(made.map((c) => async () => {
      const out = join(media, c.file);
      if (!c.remux) return ffmpeg([...c.args, '-t', String(c.seconds), out]);
      // The first pass lies outside the bound folder so the scan never sees it.
      const first = join(base, `encoded-${c.file}`);
      await ffmpeg([...c.args, '-t', String(c.seconds), first]);
      return ffmpeg(['-i', first, '-map', '0', '-c', 'copy', ...c.remux, out]);
    }), 2);
    // Dated into the past so the scan takes them at once instead of waiting for them to hold still.
    const past = new Date(Date.now() - 3_600_000);
    for (const c of made) utimesSync(join(media, c.file), past, past);

    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: media, VIDX_TASK_CONCURRENCY: '2' } });
    await s.call('POST', '/collections', { json: { collection_id: 'formats', name: 'Formats' } });
    const r = await s.call('POST', '/collections/formats/folders', { json: { path: media, watch: false } });
    if (r.status !== 201) throw new Error(`folder bind failed: ${JSON.stringify(r.body)}`);
    scan = (await settledTask(s, r.body.scan_task_id, 110_000)) as typeof scan;
    const list = (await s.call('GET', '/collections/formats/items?limit=100')).body.items as Item[];
    for (const it of list) if (it.folder_path) items.set(it.folder_path, it);
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('scans the folder without a failed file', () => {
    expect(scan.status, scan.error?.message).toBe('completed');
    expect(scan.result?.failed).toEqual([]);
    expect(scan.result?.added).toBe(CASES.filter((c) => missing(c).length === 0).length);
  });

  for (const c of CASES) {
    const lacking = missing(c);
    it.skipIf(lacking.length > 0)(`${c.what} (${c.file})${lacking.length ? `: skipped, ffmpeg lacks ${lacking.join(', ')}` : ''}`, async () => {
      const item = items.get(c.file);
      expect(item, `${c.file} is not among the items: ${JSON.stringify(scan.result?.failed)}`).toBeDefined();
      expect(item!.type).toBe(c.type);
      expect(item!.duration).not.toBeNull();
      expect(Math.abs(item!.duration! - c.seconds), `duration ${item!.duration}`).toBeLessThanOrEqual(0.5);
      if (c.type === 'audio') return;
      expect(item!.thumbnail_url).toBeTruthy();
      const res = await fetch(item!.thumbnail_url!);
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.width).toBeGreaterThan(0);
      expect(meta.height).toBeGreaterThan(0);
      if (c.portrait) expect(meta.height!).toBeGreaterThan(meta.width!);
      else expect(meta.width!).toBeGreaterThan(meta.height!);
    });
  }
});
