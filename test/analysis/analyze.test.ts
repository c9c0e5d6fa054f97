import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { ON_THREADS, startTestServer, waitFor, type TestServer } from '../support/server.js';

describe('POST /analyze over the test corpus (OCR, VAD and subtitles; no pulled models)', () => {
  let s: TestServer;
  let corpus: CorpusManifest;
  beforeAll(async () => {
    corpus = await ensureCorpus();
    // In the analysis thread, as production runs it: its output crosses the thread boundary here.
    s = await startTestServer({ env: { ...ON_THREADS, VIDX_MEDIA_ROOTS: dirname(corpus.slides.path) } });
  });
  afterAll(() => s.close());

  async function analyze(video: Record<string, unknown>) {
    const r = await s.call('POST', '/analyze', { form: { video } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 90_000, 'analysis');
  }

  it('returns the subtitle transcript, slide text in the right episodes, full coverage and a summary', async () => {
    const t = await analyze({ path: corpus.slides.path, title: 'Kitchen and sports', additional_metadata: { place: 'home' } });
    expect(t.status, t.error?.message).toBe('completed');
    const r = t.result;
    expect(t.data.video).toEqual({ path: corpus.slides.path, url: null, content: null, media_id: expect.any(String), title: 'Kitchen and sports', additional_metadata: { place: 'home' } });
    expect(r.video_duration).toBeCloseTo(corpus.slides.durationSec, 0);
    expect(r.transcript_source).toBe('embedded');
    const cues = corpus.slides.subtitles.cues;
    expect(r.audio_summary).toHaveLength(cues.length);
    r.audio_summary.forEach((a: { segment: { start: { seconds: number }; end: { seconds: number }; segment_id: number }; text: string }, i: number) => {
      expect(a.text).toBe(cues[i].text.replace(/\n/g, ' '));
      expect(a.segment.start.seconds).toBeCloseTo(cues[i].start, 2);
      expect(a.segment.end.seconds).toBeCloseTo(cues[i].end, 2);
      expect(a.segment.segment_id).toBe(i);
    });

    const eps = r.episodic_summary;
    expect(eps[0].start.seconds).toBe(0);
    expect(eps[eps.length - 1].end.seconds).toBeCloseTo(r.video_duration, 2);
    for (let i = 1; i < eps.length; i++) expect(eps[i].start.seconds).toBe(eps[i - 1].end.seconds);
    expect(eps).toHaveLength(3);
    corpus.slides.slides.forEach((slide, i) => {
      expect(eps[i].start.seconds).toBeCloseTo(slide.start, 0);
      const seen = eps[i].visual.map((v: { summary: string }) => v.summary).join(' ');
      expect(seen).toContain(slide.title);
      expect(eps[i].faces).toBeNull();
      expect(eps[i].summary).toContain(slide.title);
      expect(eps[i].audio.map((a: { text: string }) => a.text).join(' ')).toContain(cues[i].text.split('\n')[0]);
    });
    const onScreen = r.visual_summary.map((v: { text: string }) => v.text).join(' ');
    for (const slide of corpus.slides.slides) expect(onScreen).toContain(slide.title);
    expect(r.video_summary.length).toBeGreaterThan(20);
    expect(r.video_summary).toMatch(/apple cake|penalty|lake/i);

    const img = await fetch(eps[1].thumbnail);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await img.arrayBuffer());
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('uses a German sidecar subtitle next to the file', async () => {
    const t = await analyze({ path: corpus.german.path });
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result.transcript_source).toBe('sidecar');
    expect(t.result.language).toBe('de');
    const de = corpus.german.sidecars.find((x) => x.language === 'de')!;
    expect(t.result.audio_summary.map((a: { text: string }) => a.text)).toEqual(de.cues.map((c) => c.text.replace(/\n/g, ' ')));
    // The title slide goes through OCR with the German pass (language de) and comes out word for word.
    expect(t.result.visual_summary.map((v: { text: string }) => v.text).join(' ')).toContain(corpus.german.title);
  });

  it('analyzes a silent video and an audio-only file, with warnings instead of failures', async () => {
    const silent = await analyze({ path: corpus.silent.path });
    expect(silent.status, silent.error?.message).toBe('completed');
    expect(silent.result.transcript_source).toBe('none');
    expect(silent.result.audio_summary).toEqual([]);
    const eps = silent.result.episodic_summary;
    expect(eps[eps.length - 1].end.seconds).toBeCloseTo(corpus.silent.durationSec, 1);

    const audio = await analyze({ path: corpus.speech.path });
    expect(audio.status, audio.error?.message).toBe('completed');
    expect(audio.result.media_type).toBe('audio');
    expect(audio.result.warnings.join(' ')).toMatch(/speech found but not transcribed.*vidx models pull/);
    expect(audio.result.episodic_summary.length).toBeGreaterThanOrEqual(1);
    // Audio has a picture of its own: its waveform.
    const wave = await fetch(audio.result.episodic_summary[0].thumbnail);
    expect(wave.headers.get('content-type')).toBe('image/jpeg');
  });

  it('fails broken files with a reason and keeps serving', async () => {
    const cases: [string, RegExp][] = [
      [corpus.broken.notMedia.path, /not (a )?media|not recogni[sz]ed|invalid/i],
      [corpus.broken.truncated.path, /truncated/i],
      [corpus.broken.truncatedNoMoov.path, /truncated/i],
      [corpus.broken.empty.path, /empty/i],
      [corpus.broken.subtitlesOnly.path, /only subtitle streams/i],
    ];
    for (const [path, reason] of cases) {
      const t = await analyze({ path });
      expect(t.status, path).toBe('failed');
      expect(t.error?.message, path).toMatch(reason);
    }
    expect((await s.call('GET', '/health')).status).toBe(200);
  });

  it('takes an upload in the same multipart request and removes it when done', async () => {
    const fd = new FormData();
    fd.set('body', JSON.stringify({ video: { content: 'slides.mp4', media_id: 'up-1' } }));
    fd.set('file', new Blob([readFileSync(corpus.slides.path)]), 'slides.mp4');
    const r = await s.call('POST', '/analyze', { body: fd });
    expect(r.status).toBe(202);
    const t = await waitFor(async () => {
      const x = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
      return x.status === 'completed' || x.status === 'failed' ? x : undefined;
    }, 60_000);
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result.episodic_summary).toHaveLength(3);
    expect(existsSync(t.data.upload.path)).toBe(false);
    expect(readdirSync(join(s.dataDir, 'uploads'))).toEqual([]);
    const tmp = join(s.dataDir, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    // The same content with the same video fields, now by path: the analysis of the upload is reused.
    expect(t.result.reused).toBe(false);
    const again = await analyze({ path: corpus.slides.path, media_id: 'up-1' });
    expect(again.result.reused).toBe(true);
    const strip = (x: { episodic_summary: { thumbnail: unknown }[]; reused: boolean }) => ({ ...x, reused: null, episodic_summary: x.episodic_summary.map((e) => ({ ...e, thumbnail: null })) });
    expect(strip(again.result)).toEqual(strip(t.result));
  });
});
