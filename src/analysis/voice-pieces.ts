/**
 * Stretches of one voice and what each sounds like, with the pulled speaker pair: the sound streams by in
 * 10 s chunks; the segmentation model says which local speaker talks in each frame of a chunk, a run of one
 * speaker is cut into pieces of at most a few seconds, and the embedder gives each piece a vector. With the
 * embedder alone, the speech spans (voice activity, else the transcript's lines) are the runs. Only the
 * pieces' times and vectors are kept, never the sound: a 3-hour memo holds a few thousand small vectors.
 */
import { decodeAudio, PCM_SAMPLE_RATE } from '../media/audio.js';
import type { MediaTools } from '../media/binaries.js';
import type { SpeakerEmbedder, SpeakerSegmenter } from '../ml/speakers/models.js';
import type { Span } from '../tools/time-spans.js';

/** One stretch of one voice and its unit embedding. */
export interface VoicePiece extends Span {
  vector: Float32Array;
}

/** Seconds of sound per chunk: what the segmentation model was trained on. */
const CHUNK_SECONDS = 10;
/** A run of one voice is cut into pieces of about this length: long enough for a sure embedding. */
const PIECE_SECONDS = 2;
/** Pieces shorter than this say too little about a voice. */
const SHORTEST_PIECE = 0.5;

/**
 * The voice pieces of `file`'s speech.
 * @example
 * const pieces = await voicePieces(file, speech, { embedder, segmenter, signal, tools });
 * pieces[0]; // { start: 0.4, end: 2.4, vector: Float32Array(256) }
 */
export async function voicePieces(
  file: string,
  speech: readonly Span[],
  opts: { embedder: SpeakerEmbedder; segmenter: SpeakerSegmenter | null; signal: AbortSignal; tools?: MediaTools },
): Promise<VoicePiece[]> {
  const pieces: VoicePiece[] = [];
  const lastSpeech = Math.max(0, ...speech.map((s) => s.end));
  let at = 0;
  for await (const pcm of decodeAudio(file, { signal: opts.signal, tools: opts.tools, chunkSeconds: CHUNK_SECONDS })) {
    const chunk: Span = { start: at, end: at + pcm.length / PCM_SAMPLE_RATE };
    at = chunk.end;
    const heard = speech.filter((s) => s.start < chunk.end && s.end > chunk.start);
    if (heard.length === 0) {
      if (chunk.start >= lastSpeech) break; // the speech is all heard: the rest need not be decoded
      continue;
    }
    const runs = opts.segmenter ? await speakerRuns(opts.segmenter, pcm, chunk.start) : heard.map((s) => ({ start: Math.max(s.start, chunk.start), end: Math.min(s.end, chunk.end) }));
    for (const piece of runs.flatMap((run) => cut(run))) {
      const from = Math.max(0, Math.round((piece.start - chunk.start) * PCM_SAMPLE_RATE));
      const to = Math.min(pcm.length, Math.round((piece.end - chunk.start) * PCM_SAMPLE_RATE));
      const vector = await opts.embedder.embed(pcm.subarray(from, to));
      if (vector) pieces.push({ ...piece, vector });
    }
  }
  return pieces;
}

/** Runs of frames where exactly one local speaker talks (overlapped speech says nothing sure of either voice). */
async function speakerRuns(segmenter: SpeakerSegmenter, pcm: Float32Array, offset: number): Promise<Span[]> {
  const { frames, frameSeconds } = await segmenter.segment(pcm);
  const runs: Span[] = [];
  let open: { speaker: number; from: number } | null = null;
  const close = (until: number) => {
    if (open) runs.push({ start: offset + open.from * frameSeconds, end: offset + until * frameSeconds });
    open = null;
  };
  frames.forEach((active, f) => {
    const speaker = active.length === 1 ? active[0]! : -1;
    if (open && open.speaker === speaker) return;
    close(f);
    if (speaker >= 0) open = { speaker, from: f };
  });
  close(frames.length);
  return runs;
}

/** A run cut into even pieces of about PIECE_SECONDS; a run too short for one sure piece is left out. */
function cut(run: Span): Span[] {
  const length = run.end - run.start;
  if (length < SHORTEST_PIECE) return [];
  const n = Math.max(1, Math.round(length / PIECE_SECONDS));
  return Array.from({ length: n }, (_, i) => ({ start: run.start + (i * length) / n, end: run.start + ((i + 1) * length) / n }));
}
