import { beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio, PCM_SAMPLE_RATE } from '../../src/media/audio.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

let corpus: CorpusManifest;
beforeAll(async () => {
  corpus = await ensureCorpus();
});

function rms(a: Float32Array, from: number, to: number): number {
  let s = 0;
  const i0 = Math.floor(from * PCM_SAMPLE_RATE);
  const i1 = Math.min(a.length, Math.floor(to * PCM_SAMPLE_RATE));
  for (let i = i0; i < i1; i++) s += a[i] * a[i];
  return Math.sqrt(s / Math.max(1, i1 - i0));
}

async function all(file: string, opts: Parameters<typeof decodeAudio>[1] = {}): Promise<{ pcm: Float32Array; chunks: number[] }> {
  const parts: Float32Array[] = [];
  for await (const c of decodeAudio(file, opts)) parts.push(c);
  const pcm = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    pcm.set(p, o);
    o += p.length;
  }
  return { pcm, chunks: parts.map((p) => p.length) };
}

describe('decodeAudio', () => {
  it('yields 16 kHz mono chunks adding up to duration × 16000, loud where speech is', async () => {
    const s = corpus.slides;
    const { pcm, chunks } = await all(s.path, { chunkSeconds: 5 });
    expect(Math.abs(pcm.length - s.durationSec * PCM_SAMPLE_RATE)).toBeLessThan(PCM_SAMPLE_RATE * 0.05);
    expect(chunks.slice(0, -1).every((n) => n === 5 * PCM_SAMPLE_RATE)).toBe(true);
    const speech = s.speech[1];
    expect(rms(pcm, speech.start + 0.2, speech.end - 0.2)).toBeGreaterThan(0.02);
    expect(rms(pcm, 0, 0.8)).toBeLessThan(0.002);
  });

  it('decodes an audio-only file and a window of it', async () => {
    const { pcm } = await all(corpus.speech.path);
    expect(Math.abs(pcm.length - corpus.speech.durationSec * PCM_SAMPLE_RATE)).toBeLessThan(PCM_SAMPLE_RATE * 0.1);
    const win = await all(corpus.speech.path, { startSec: 2, durationSec: 3 });
    expect(win.pcm.length).toBe(3 * PCM_SAMPLE_RATE);
  });

  it('yields nothing for a file without audio', async () => {
    const { chunks } = await all(corpus.silent.path);
    expect(chunks).toEqual([]);
  });

  it('stops ffmpeg when the consumer breaks out or aborts', async () => {
    let seen = 0;
    for await (const c of decodeAudio(corpus.slides.path, { chunkSeconds: 1 })) {
      seen += c.length;
      break;
    }
    expect(seen).toBe(PCM_SAMPLE_RATE);

    const ac = new AbortController();
    const run = (async () => {
      for await (const _ of decodeAudio(corpus.slides.path, { chunkSeconds: 1, signal: ac.signal })) ac.abort(new Error('stop now'));
    })();
    await expect(run).rejects.toThrow('stop now');
  });
});
