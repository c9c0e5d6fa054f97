import { detectScenes, type MediaProbe, type SceneCut } from '../media/index.js';
import type { FrameSequence, ScoredSoFar } from '../media/scenes.js';
import type { ModelRuntime } from '../ml/runtime.js';

/** A video's shots once its pass has ended: its hard cuts, and the dense frame sequence hashed in the same pass. */
export interface ShotsFound {
  cuts: SceneCut[];
  sequence: FrameSequence | null;
}

/**
 * Frames a second hashed for a video's sequence: 10 (a copy trimmed anywhere still lines up within a frame
 * or two), 2 past half an hour (8 bytes a frame add up in long recordings).
 * @example
 * sequenceFps(90); // 10
 */
export function sequenceFps(duration: number): number {
  return duration <= 1800 ? 10 : 2;
}

/**
 * A video's shots while its one decoding pass (media/scenes.ts) runs: how far the pass has scored, with the
 * cuts up to there, as it goes; and all of them when it ends. The visual pass reads the keyframes of the
 * shots already settled while the rest are still found, on the machine's other core.
 * @example
 * const shots = findShots(file, probe, { models, signal });
 * for await (const t of shots.keyframes(probe.durationSec)) decode(t); // as the pass settles them
 * (await shots.found).cuts; // [{ time: 8, score: 0.97 }, …]
 */
export class Shots {
  /** The cuts and the frame sequence, once the pass has ended. */
  readonly found: Promise<ShotsFound>;
  private sofar: ScoredSoFar = { reached: 0, cuts: [] };
  private ended = false;
  private waiting: (() => void)[] = [];

  constructor(pass: (onScored: (sofar: ScoredSoFar) => void) => Promise<ShotsFound>) {
    this.found = pass((sofar) => {
      this.sofar = sofar;
      this.wake();
    });
    const end = (): void => {
      this.ended = true;
      this.wake();
    };
    this.found.then(end, end);
  }

  /**
   * The keyframe times of the video, each as soon as the pass has settled it (see {@link keyframeTimes}): the
   * same times, in the same order, as the pass's cuts give once it has ended. Throws the pass's error.
   */
  async *keyframes(duration: number): AsyncGenerator<number> {
    const plan = new KeyframePlan(duration);
    let used = 0;
    for (;;) {
      const { reached, cuts } = this.sofar;
      const ended = this.ended;
      for (; used < cuts.length; used++) yield* plan.cut(cuts[used]!.time);
      if (ended) {
        await this.found;
        yield* plan.end();
        return;
      }
      yield* plan.reached(reached);
      if (this.sofar.reached === reached && this.sofar.cuts.length === used && !this.ended) await new Promise<void>((r) => this.waiting.push(r));
    }
  }

  private wake(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}

/**
 * Starts a video's shot pass: one decoding pass that needs nothing but the file, so it runs while the
 * transcript is made, and the keyframes of its first shots are read while it goes on.
 * @example
 * const shots = findShots(file, probe, { models, signal, progress: (f) => say(f) });
 * const { cuts } = await shots.found;
 */
export function findShots(file: string, probe: MediaProbe, opts: { models: ModelRuntime; signal: AbortSignal; progress?: (fraction: number) => void }): Shots {
  const duration = probe.durationSec;
  return new Shots(async (onScored) => {
    const { cuts, sequence } = await detectScenes(file, {
      signal: opts.signal,
      tools: opts.models.tools,
      probe,
      sequenceFps: sequenceFps(duration),
      onScored: (sofar) => {
        onScored(sofar);
        opts.progress?.(duration > 0 ? Math.min(1, sofar.reached / duration) : 0);
      },
    });
    return { cuts, sequence };
  });
}

/**
 * Where keyframes are taken inside shots: about one per `step` seconds (4–30, a sixtieth of the video), at
 * least one per shot, the first a little after the cut where fades and transitions have settled. It is told
 * the cuts in order and how far the video is known to hold no other cut, and hands back each keyframe as
 * soon as it is certain, so the same times come out whether it is told everything at once or as a pass goes.
 * @example
 * const plan = new KeyframePlan(60);
 * plan.reached(10); // [1, 5] (no cut before 10 s: the shot is longer than 2 s, its first keyframe is at 1 s)
 * plan.cut(12);     // [9]
 * plan.end();       // [13, 17, …]
 */
export class KeyframePlan {
  private readonly step: number;
  private start = 0;
  /** The current shot's next keyframe, once its first is known (it depends on the shot's length below 2 s). */
  private next: number | null = null;

  constructor(private readonly duration: number) {
    this.step = Math.min(30, Math.max(4, duration / 60));
  }

  /** The video holds no cut after the current shot's start up to `time` (inclusive). */
  reached(time: number): number[] {
    if (this.next === null) {
      if (time - this.start < 2) return [];
      this.next = this.start + 1;
    }
    return this.upTo(time);
  }

  /** A cut: the current shot ends at `time` and the next starts there. Cuts outside the video are ignored. */
  cut(time: number): number[] {
    if (time <= 0 || time >= this.duration) return [];
    const out = this.close(time);
    this.start = time;
    this.next = null;
    return out;
  }

  /** The pass has ended: the last shot ends with the video. */
  end(): number[] {
    const out = this.close(this.duration);
    this.start = this.duration;
    this.next = null;
    return out;
  }

  private close(end: number): number[] {
    if (this.next === null) {
      const len = end - this.start;
      if (len <= 0.05) return [];
      this.next = this.start + Math.min(len / 2, 1);
    }
    return this.upTo(end);
  }

  /** The keyframes before `end - 0.05` (a keyframe never sits on the last frames of its shot). */
  private upTo(end: number): number[] {
    const out: number[] = [];
    for (; this.next! < end - 0.05; this.next! += this.step) out.push(Math.round(this.next! * 1000) / 1000);
    return out;
  }
}

/**
 * The keyframes of a whole video given its cuts (see {@link KeyframePlan}).
 * @example
 * keyframeTimes(20, [9]); // [1, 5, 10, 14, 18]
 */
export function keyframeTimes(duration: number, cuts: readonly number[]): number[] {
  const plan = new KeyframePlan(duration);
  return [...cuts.flatMap((c) => plan.cut(c)), ...plan.end()];
}
