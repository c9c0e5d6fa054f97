import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../src/media/errors.js';
import { probeMedia } from '../../src/media/probe.js';
import { parseProbeJson } from '../../src/media/probe-json.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

let corpus: CorpusManifest;
let tmp: string;
beforeAll(async () => {
  corpus = await ensureCorpus();
  tmp = await mkdtemp(join(process.cwd(), 'test', '.tmp', 'probe-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function codeOf(file: string): Promise<{ code: string; message: string }> {
  try {
    await probeMedia(file);
  } catch (e) {
    if (e instanceof MediaError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error(`${file} probed without error`);
}

describe('probeMedia', () => {
  it('reports format, streams and subtitle tracks of the slides video', async () => {
    const s = corpus.slides;
    const p = await probeMedia(s.path);
    expect(p.durationSec).toBeCloseTo(s.durationSec, 1);
    expect(p.formatName).toContain('mp4');
    expect(p.sizeBytes).toBe((await stat(s.path)).size);
    expect(p.tags.title).toBe('vidx test slides');
    expect(p.video).toMatchObject({ width: s.width, height: s.height, rotation: 0, fps: s.fps, codec: 'h264', sar: 1 });
    expect(p.audio).toMatchObject(s.audio);
    expect(p.subtitles).toEqual([{ index: 2, subIndex: 0, codec: 'mov_text', language: 'eng', isDefault: true }]);
  });

  it('handles a video without audio, audio without video and a rotated phone clip', async () => {
    const silent = await probeMedia(corpus.silent.path);
    expect(silent.audio).toBeUndefined();
    expect(silent.video).toMatchObject({ width: 320, height: 240 });

    const speech = await probeMedia(corpus.speech.path);
    expect(speech.video).toBeUndefined();
    expect(speech.audio).toMatchObject({ sampleRate: 44100, channels: 2, codec: 'aac' });
    expect(speech.durationSec).toBeCloseTo(corpus.speech.durationSec, 0);

    const rot = await probeMedia(corpus.rotated.path);
    expect(rot.video).toMatchObject({ width: corpus.rotated.storedWidth, height: corpus.rotated.storedHeight, rotation: corpus.rotated.rotation });
  });

  it('names each kind of broken file with its own code and a readable message', async () => {
    const b = corpus.broken;
    expect(await codeOf(b.notMedia.path)).toMatchObject({ code: 'not_media', message: expect.stringContaining('not-media.mp4 is not a media file') });
    expect(await codeOf(b.empty.path)).toMatchObject({ code: 'empty', message: expect.stringContaining('empty (0 bytes)') });
    expect(await codeOf(b.truncated.path)).toMatchObject({ code: 'truncated', message: expect.stringMatching(/truncated: the container says 24\.0 s but data ends at/) });
    expect(await codeOf(b.truncatedNoMoov.path)).toMatchObject({ code: 'truncated', message: expect.stringContaining('no index (moov atom)') });
    expect(await codeOf(b.subtitlesOnly.path)).toMatchObject({ code: 'no_streams', message: expect.stringContaining('only subtitle streams') });
    expect(await codeOf(tmp)).toMatchObject({ code: 'not_media', message: expect.stringContaining('not a regular file') });
  });

  it('skips the integrity check on request (truncated fast-start MP4 still probes)', async () => {
    const p = await probeMedia(corpus.broken.truncated.path, { checkIntegrity: false });
    expect(p.durationSec).toBeCloseTo(24, 0);
  });
});

describe('parseProbeJson', () => {
  it('ignores cover art, reads rotation from side data or tag, drops "und" and falls back on frame rates', () => {
    const p = parseProbeJson(
      {
        format: { format_name: 'mov,mp4', duration: '10.5', tags: { TITLE: 'x' } },
        streams: [
          { index: 0, codec_type: 'video', codec_name: 'mjpeg', width: 600, height: 600, disposition: { attached_pic: 1 } },
          { index: 1, codec_type: 'video', codec_name: 'hevc', width: 1920, height: 1080, avg_frame_rate: '0/0', r_frame_rate: '30000/1001', side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] },
          { index: 2, codec_type: 'audio', codec_name: 'opus', sample_rate: '48000', channels: 2 },
          { index: 3, codec_type: 'subtitle', codec_name: 'subrip', tags: { language: 'und', title: 'Forced' } },
          { index: 4, codec_type: 'subtitle', codec_name: 'ass', tags: { language: 'ger' }, disposition: { default: 1 } },
        ],
      },
      123,
    );
    expect(p).toMatchObject({ durationSec: 10.5, sizeBytes: 123, tags: { title: 'x' } });
    expect(p.video).toMatchObject({ index: 1, rotation: 90, codec: 'hevc' });
    expect(p.video!.fps).toBeCloseTo(29.97, 2);
    expect(p.subtitles).toEqual([
      { index: 3, subIndex: 0, codec: 'subrip', title: 'Forced', isDefault: false },
      { index: 4, subIndex: 1, codec: 'ass', language: 'ger', isDefault: true },
    ]);
    const tagged = parseProbeJson({ streams: [{ index: 0, codec_type: 'video', codec_name: 'h264', width: 4, height: 2, duration: '3', tags: { rotate: '180' } }] }, 1);
    expect(tagged.video!.rotation).toBe(180);
    expect(tagged.durationSec).toBe(3);
  });
});

describe('probeMedia with a subtitle track longer than the picture and sound', () => {
  it('takes the length of the audio and video streams and accepts the file (MP4 and Matroska)', async () => {
    const srt = join(tmp, 'late.srt');
    const { writeFile } = await import('node:fs/promises');
    const { runTool } = await import('../../src/media/run.js');
    await writeFile(srt, '1\n00:00:01,000 --> 00:00:03,000\nHello\n\n2\n00:00:18,000 --> 00:00:20,500\nLate cue\n');
    const mp4 = join(tmp, 'long-subs.mp4');
    const mkv = join(tmp, 'long-subs.mkv');
    const picture = ['-f', 'lavfi', '-i', 'color=c=blue:s=160x120:r=25:d=17.84'];
    await runTool('ffmpeg', ['-v', 'error', '-y', ...picture, '-f', 'lavfi', '-i', 'sine=d=17.84', '-i', srt, '-map', '0', '-map', '1', '-map', '2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-c:s', 'mov_text', '-movflags', '+faststart', mp4]);
    await runTool('ffmpeg', ['-v', 'error', '-y', ...picture, '-i', srt, '-map', '0', '-map', '1', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:s', 'srt', mkv]);
    for (const file of [mp4, mkv]) {
      const p = await probeMedia(file);
      expect(p.durationSec, file).toBeCloseTo(17.84, 1);
      expect(p.subtitles).toHaveLength(1);
    }
  });

  it('still refuses a file cut short in its audio and video data', async () => {
    expect((await codeOf(corpus.broken.truncated.path)).code).toBe('truncated');
  });
});
