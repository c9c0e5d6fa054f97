/**
 * Plans Whisper windows from speech segments: each window covers whole segments and lasts at
 * most 30 s (Whisper's receptive field); a segment longer than that is split evenly.
 */

/** A stretch of speech, in seconds from the start of the audio (from VAD). */
export interface SpeechSegment {
  start: number;
  end: number;
}

/** A window to transcribe, in seconds from the start of the audio. */
export interface AsrChunk {
  start: number;
  end: number;
}

export interface ChunkPlanOptions {
  /** Longest window, seconds. Default 30. */
  maxChunkS?: number;
  /** Audio length, seconds; segments are clipped to it. */
  durationS: number;
}

/**
 * Sorted, clipped, merged segments, with long ones split into pieces of at most `maxChunkS`.
 * @example
 * normalizeSegments([{ start: 0, end: 70 }], { durationS: 80 });
 * // [{start:0,end:23.33}, {start:23.33,end:46.67}, {start:46.67,end:70}]
 */
export function normalizeSegments(segments: SpeechSegment[], opts: ChunkPlanOptions): SpeechSegment[] {
  const max = opts.maxChunkS ?? 30;
  const clipped = segments
    .map((s) => ({ start: Math.max(0, s.start), end: Math.min(opts.durationS, s.end) }))
    .filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end) && s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const merged: SpeechSegment[] = [];
  for (const s of clipped) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  const out: SpeechSegment[] = [];
  for (const s of merged) {
    const pieces = Math.ceil((s.end - s.start) / max - 1e-9);
    const len = (s.end - s.start) / pieces;
    for (let i = 0; i < pieces; i++) {
      out.push({ start: s.start + i * len, end: i === pieces - 1 ? s.end : s.start + (i + 1) * len });
    }
  }
  return out;
}

/**
 * Packs consecutive segments into windows of at most `maxChunkS`, cutting only between segments.
 * @example
 * planChunks([{ start: 1, end: 5 }, { start: 8, end: 20 }, { start: 29, end: 40 }], { durationS: 60 });
 * // [{ start: 1, end: 20 }, { start: 29, end: 40 }]
 */
export function planChunks(segments: SpeechSegment[], opts: ChunkPlanOptions): AsrChunk[] {
  const max = opts.maxChunkS ?? 30;
  const chunks: AsrChunk[] = [];
  for (const s of normalizeSegments(segments, opts)) {
    const cur = chunks.at(-1);
    if (cur && s.end - cur.start <= max + 1e-9) cur.end = s.end;
    else chunks.push({ start: s.start, end: s.end });
  }
  return chunks;
}
