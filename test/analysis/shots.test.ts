/**
 * Issue 48: the keyframes of a video's first shots are read while its shot pass goes on. The keyframes settled
 * as the pass goes must be the very keyframes its cuts give once it has ended.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findShots, KeyframePlan, keyframeTimes } from '../../src/analysis/shots.js';
import { probeMedia } from '../../src/media/probe.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

let corpus: CorpusManifest;
beforeAll(async () => {
  corpus = await ensureCorpus();
});

describe('keyframes settled as a shot pass goes', () => {
  it('are those of the whole video, for short and long shots, whatever the ticks', () => {
    let seed = 48;
    // A small linear congruential source: the same videos on every run.
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let video = 0; video < 500; video++) {
      const duration = Math.round(rnd() * (video % 2 ? 4000 : 40) * 1000) / 1000;
      const cuts: number[] = [];
      for (let t = 0.5 + rnd() * 3; t < duration + 2; t += 0.5 + rnd() * (rnd() < 0.3 ? 2 : 60)) cuts.push(Math.round(t * 1000) / 1000);
      const plan = new KeyframePlan(duration);
      const settled: number[] = [];
      let next = 0;
      for (let reached = 0; reached <= duration; reached += 0.04 + rnd() * 3) {
        while (next < cuts.length && cuts[next]! <= reached) settled.push(...plan.cut(cuts[next++]!));
        settled.push(...plan.reached(reached));
      }
      while (next < cuts.length) settled.push(...plan.cut(cuts[next++]!));
      settled.push(...plan.end());
      expect(settled).toEqual(keyframeTimes(duration, cuts));
    }
  });

  it('a real pass settles them before it ends, in order, and they match its cuts', async () => {
    const file = corpus.slides.path;
    const probe = await probeMedia(file, { checkIntegrity: false });
    const progress: number[] = [];
    const shots = findShots(file, probe, { models: new ModelRuntime({ modelsDir: '/nowhere' }), signal: new AbortController().signal, progress: (f) => progress.push(f) });
    const settled: { time: number; passEnded: boolean }[] = [];
    let passEnded = false;
    void shots.found.then(() => (passEnded = true));
    for await (const time of shots.keyframes(probe.durationSec)) settled.push({ time, passEnded });
    const { cuts } = await shots.found;
    expect(cuts).toHaveLength(corpus.slides.cuts.length);
    expect(settled.map((k) => k.time)).toEqual(keyframeTimes(probe.durationSec, cuts.map((c) => c.time)));
    expect(settled[0]!.passEnded).toBe(false);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it("throws the pass's error to the reader of its keyframes", async () => {
    // An audio file said to hold the slides' picture: ffmpeg refuses to read a picture from its sound.
    const file = corpus.speech.path;
    const probe = { ...(await probeMedia(file, { checkIntegrity: false })), video: (await probeMedia(corpus.slides.path, { checkIntegrity: false })).video };
    const shots = findShots(file, probe, { models: new ModelRuntime({ modelsDir: '/nowhere' }), signal: new AbortController().signal });
    const reading = (async () => {
      for await (const _ of shots.keyframes(probe.durationSec));
    })();
    await expect(reading).rejects.toThrow();
    await expect(shots.found).rejects.toThrow();
  });
});
