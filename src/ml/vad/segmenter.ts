/**
 * A stretch of speech, in seconds from the start of the audio.
 * @example
 * const s: SpeechSegment = { start: 1.92, end: 5.03 };
 */
export interface SpeechSegment {
  start: number;
  end: number;
}

/**
 * Segmentation settings; defaults follow Silero's get_speech_timestamps, with longer silence and padding.
 * @example
 * new SpeechSegmenter(16000, 512, { threshold: 0.6, negThreshold: 0.45 });
 */
export interface SegmenterOptions {
  /** Probability at or above which speech starts (default 0.5). */
  threshold: number;
  /** Probability below which speech may end (default 0.35; hysteresis between the two). */
  negThreshold: number;
  /** Shorter speech is dropped (default 250 ms). */
  minSpeechMs: number;
  /** Silence must last this long to end a segment (default 400 ms). */
  minSilenceMs: number;
  /** Added before and after each segment (default 100 ms). */
  speechPadMs: number;
  /** Padded segments closer than this are joined (default 0: only touching or overlapping ones). */
  mergeGapMs: number;
}

/**
 * The values used when an option is not given.
 * @example
 * const { minSilenceMs } = DEFAULT_SEGMENTER_OPTIONS; // 400
 */
export const DEFAULT_SEGMENTER_OPTIONS: SegmenterOptions = {
  threshold: 0.5,
  negThreshold: 0.35,
  minSpeechMs: 250,
  minSilenceMs: 400,
  speechPadMs: 100,
  mergeGapMs: 0,
};

/**
 * Turns per-window speech probabilities into padded, merged speech segments, one window at a time,
 * so it can follow a stream of any length. Works in samples internally; reports seconds.
 * @example
 * const seg = new SpeechSegmenter(16000, 512);
 * for (const p of probs) for (const s of seg.push(p)) console.log(s);
 * console.log(seg.finish(totalSamples));
 */
export class SpeechSegmenter {
  private readonly opt: SegmenterOptions;
  private readonly minSpeech: number;
  private readonly minSilence: number;
  private readonly pad: number;
  private readonly mergeGap: number;
  /** Sample offset of the next window. */
  private position = 0;
  private speechStart = -1;
  /** Where the current run of low probability began, or -1. */
  private silenceStart = -1;
  /** The last closed segment (padded), held back until the next one shows whether they merge. */
  private pending: { start: number; end: number } | null = null;

  constructor(
    private readonly sampleRate: number,
    private readonly windowSize: number,
    options: Partial<SegmenterOptions> = {},
  ) {
    this.opt = { ...DEFAULT_SEGMENTER_OPTIONS, ...options };
    if (this.opt.negThreshold > this.opt.threshold) throw new Error('negThreshold must not exceed threshold');
    const ms = (v: number) => Math.round((v * sampleRate) / 1000);
    this.minSpeech = ms(this.opt.minSpeechMs);
    this.minSilence = ms(this.opt.minSilenceMs);
    this.pad = ms(this.opt.speechPadMs);
    this.mergeGap = ms(this.opt.mergeGapMs);
  }

  /** Feeds the probability of the next window; returns segments that are now final. */
  push(probability: number): SpeechSegment[] {
    const at = this.position;
    this.position += this.windowSize;
    const done: SpeechSegment[] = [];
    if (probability >= this.opt.threshold) {
      this.silenceStart = -1;
      if (this.speechStart < 0) this.speechStart = at;
      return done;
    }
    if (this.speechStart < 0 || probability >= this.opt.negThreshold) return done;
    if (this.silenceStart < 0) this.silenceStart = at;
    if (at + this.windowSize - this.silenceStart >= this.minSilence) {
      this.close(this.silenceStart, done);
    }
    return done;
  }

  /** Ends the stream after `totalSamples` samples; returns the remaining segments. */
  finish(totalSamples = this.position): SpeechSegment[] {
    const done: SpeechSegment[] = [];
    if (this.speechStart >= 0) this.close(this.silenceStart >= 0 ? this.silenceStart : Math.min(this.position, totalSamples), done);
    if (this.pending) {
      done.push(this.toSeconds(this.pending.start, Math.min(this.pending.end, totalSamples)));
      this.pending = null;
    }
    return done;
  }

  private close(end: number, done: SpeechSegment[]): void {
    const start = this.speechStart;
    this.speechStart = -1;
    this.silenceStart = -1;
    if (end - start < this.minSpeech) return;
    const padded = { start: Math.max(0, start - this.pad), end: end + this.pad };
    if (this.pending && padded.start - this.pending.end <= this.mergeGap) {
      this.pending.end = padded.end;
      return;
    }
    if (this.pending) done.push(this.toSeconds(this.pending.start, this.pending.end));
    this.pending = padded;
  }

  private toSeconds(start: number, end: number): SpeechSegment {
    const r = (v: number) => Math.round((v / this.sampleRate) * 1000) / 1000;
    return { start: r(start), end: r(end) };
  }
}
