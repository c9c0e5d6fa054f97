import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectSpeech,
  detectSpeechInSamples,
  f32leChunks,
  sileroModelPath,
  streamSpeechSegments,
  type SpeechSegment,
} from '../../src/ml/vad/index.js';
import { sileroSession } from '../../src/ml/vad/model.js';
import { SpeechSegmenter } from '../../src/ml/vad/segmenter.js';
import { assemble, decodePcmStream, loudExtent, scratchDir, speech, writeWav } from './fixtures.js';

describe('speech segmenter (probabilities in, segments out)', () => {
  // 100 windows per second keeps the arithmetic readable: window i starts at i * 10 ms.
  const run = (probs: number[], opts = {}) => {
    const seg = new SpeechSegmenter(1000, 10, opts);
    const out: SpeechSegment[] = [];
    for (const p of probs) out.push(...seg.push(p));
    out.push(...seg.finish());
    return out;
  };
  const repeat = (p: number, n: number) => Array<number>(n).fill(p);

  it('pads segments and ends them only after the minimum silence', () => {
    const probs = [...repeat(0, 100), ...repeat(0.9, 50), ...repeat(0, 100)];
    expect(run(probs)).toEqual([{ start: 0.9, end: 1.6 }]);
  });

  it('holds speech through probabilities between the two thresholds (hysteresis)', () => {
    const probs = [...repeat(0, 50), ...repeat(0.9, 30), ...repeat(0.4, 60), ...repeat(0.9, 30), ...repeat(0, 60)];
    expect(run(probs)).toEqual([{ start: 0.4, end: 1.8 }]);
  });

  it('drops speech shorter than the minimum', () => {
    expect(run([...repeat(0, 50), ...repeat(0.9, 20), ...repeat(0, 60)])).toEqual([]);
  });

  it('keeps short pauses inside a segment and splits at long ones', () => {
    const talk = repeat(0.9, 40);
    expect(run([...talk, ...repeat(0.1, 30), ...talk, ...repeat(0, 60)])).toHaveLength(1);
    expect(run([...talk, ...repeat(0.1, 80), ...talk, ...repeat(0, 60)])).toHaveLength(2);
  });

  it('merges padded segments closer than mergeGapMs', () => {
    const probs = [...repeat(0.9, 40), ...repeat(0.1, 80), ...repeat(0.9, 40), ...repeat(0, 60)];
    expect(run(probs, { mergeGapMs: 700 })).toEqual([{ start: 0, end: 1.7 }]);
  });

  it('closes speech still running at the end of the stream', () => {
    expect(run([...repeat(0, 30), ...repeat(0.9, 50)])).toEqual([{ start: 0.2, end: 0.8 }]);
  });
});

describe('f32le byte stream adapter', () => {
  it('rebuilds samples split across chunk boundaries at any byte', async () => {
    const samples = Float32Array.from({ length: 50 }, (_, i) => Math.sin(i) * 0.5);
    const bytes = new Uint8Array(samples.buffer);
    async function* pieces() {
      // Sizes that leave 1, 2 and 3 stray bytes, and a chunk smaller than one sample.
      const sizes = [5, 2, 7, 1, 3, 13, 200];
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const n = sizes[i % sizes.length];
        yield bytes.slice(at, at + n);
        at += n;
      }
    }
    const out: number[] = [];
    for await (const chunk of f32leChunks(pieces())) out.push(...chunk);
    expect(out).toEqual([...samples]);
  });
});

describe('Silero VAD v5 on espeak-ng speech', () => {
  let dir: Awaited<ReturnType<typeof scratchDir>>;
  let track: Float32Array;
  let truth: Array<[number, number]>;

  beforeAll(async () => {
    dir = await scratchDir();
    const a = await speech(dir.path, 'The quarterly results were better than expected this year.');
    const b = await speech(dir.path, 'Please remember to index the new video collection tomorrow.');
    const built = assemble([2, a, 3, b, 2]);
    track = built.track;
    truth = [a, b].map((clip, i) => {
      const [s, e] = loudExtent(clip);
      return [built.offsets[i] + s, built.offsets[i] + e];
    });
  });

  afterAll(async () => {
    await dir?.dispose();
  });

  const expectMatches = (found: SpeechSegment[]) => {
    expect(found).toHaveLength(2);
    found.forEach((seg, i) => {
      expect(Math.abs(seg.start - truth[i][0])).toBeLessThanOrEqual(0.3);
      expect(Math.abs(seg.end - truth[i][1])).toBeLessThanOrEqual(0.3);
    });
  };

  it('loads the v5 model from the installed package with inputs input/state/sr', async () => {
    expect(sileroModelPath()).toMatch(/node_modules[\\/].+silero_vad_v5\.onnx$/);
    const session = await sileroSession();
    expect([...session.inputNames].sort()).toEqual(['input', 'sr', 'state']);
    expect([...session.outputNames].sort()).toEqual(['output', 'stateN']);
  });

  it('finds both utterances in a whole buffer within 0.3 s', async () => {
    expectMatches(await detectSpeechInSamples(track));
  });

  it('gives the same answer for arbitrary chunk sizes', async () => {
    const whole = await detectSpeechInSamples(track);
    // Deterministic odd sizes, including 1-sample and larger-than-window chunks.
    const sizes = [1, 7, 511, 513, 1000, 4096, 333];
    async function* chunks() {
      for (let at = 0, i = 0; at < track.length; i++) {
        const n = sizes[i % sizes.length];
        yield track.subarray(at, at + n);
        at += n;
      }
    }
    expect(await detectSpeech(chunks())).toEqual(whole);
  });

  it('streams from ffmpeg stdout and yields the first segment before the audio ends', async () => {
    const wav = join(dir.path, 'track.wav');
    await writeWav(wav, track);
    let samplesRead = 0;
    async function* counted() {
      for await (const c of f32leChunks(decodePcmStream(wav))) {
        samplesRead += c.length;
        yield c;
      }
    }
    const seen: Array<{ seg: SpeechSegment; readAt: number }> = [];
    for await (const seg of streamSpeechSegments(counted())) seen.push({ seg, readAt: samplesRead });
    expectMatches(seen.map((s) => s.seg));
    expect(seen[0].readAt).toBeLessThan(track.length);
  });

  it('finds nothing in silence and in low noise', async () => {
    expect(await detectSpeechInSamples(new Float32Array(16000 * 3))).toEqual([]);
    let seed = 1;
    const noise = Float32Array.from({ length: 16000 * 3 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed / 2 ** 31 - 0.5) * 0.01;
    });
    expect(await detectSpeechInSamples(noise)).toEqual([]);
  });
});
