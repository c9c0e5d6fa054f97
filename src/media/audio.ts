import type { MediaTools } from './binaries.js';
import { fileUrl, spawnTool, ToolError } from './run.js';

/** Sample rate of the PCM that {@link decodeAudio} yields (what speech models expect). */
export const PCM_SAMPLE_RATE = 16_000;

/** Options for {@link decodeAudio}. */
export interface DecodeAudioOptions {
  signal?: AbortSignal;
  /** The server's tools (FFMPEG_PATH …); default: npm packages, then PATH. */
  tools?: MediaTools;
  /** Samples per yielded chunk, in seconds of audio. Default 30; the last chunk is shorter. */
  chunkSeconds?: number;
  /** Start decoding here (seconds, fast input seek). Default 0. */
  startSec?: number;
  /** Stop after this many seconds. Default: to the end. */
  durationSec?: number;
  /** Which audio stream (container stream index). Default: ffmpeg's first audio stream. */
  streamIndex?: number;
}

const NO_AUDIO = /does not contain any stream|matches no streams/i;

/**
 * Streams a file's audio as 16 kHz mono Float32 PCM in chunks of `chunkSeconds`, decoding as it is
 * read (ffmpeg waits on the pipe while the consumer is busy), so whole files are never held in memory.
 * A file without audio yields nothing. Breaking out of the loop or aborting kills ffmpeg.
 * @example
 * for await (const pcm of decodeAudio('/media/talk.mp4', { signal, chunkSeconds: 30 })) {
 *   await vad.feed(pcm); // pcm.length === 480_000 except for the last chunk
 * }
 */
export async function* decodeAudio(file: string, opts: DecodeAudioOptions = {}): AsyncGenerator<Float32Array> {
  const { signal, chunkSeconds = 30, startSec = 0, durationSec, streamIndex, tools } = opts;
  if (!(chunkSeconds > 0)) throw new RangeError('chunkSeconds must be > 0');
  const chunkBytes = Math.max(1, Math.round(chunkSeconds * PCM_SAMPLE_RATE)) * 4;
  const args = ['-hide_banner', '-nostdin', '-nostats', '-v', 'error'];
  if (startSec > 0) args.push('-ss', startSec.toFixed(3));
  args.push('-i', fileUrl(file));
  if (durationSec !== undefined) args.push('-t', durationSec.toFixed(3));
  args.push('-map', streamIndex === undefined ? '0:a:0?' : `0:${streamIndex}`);
  // A float downmix is not scaled back by default: 8 channels of one voice came out 4.4× as loud, past 1.0,
  // and VAD and voice features heard another recording. `rematrix_maxval 1` keeps the mix at the source's level.
  args.push('-vn', '-sn', '-dn', '-ac', '1', '-rematrix_maxval', '1', '-ar', String(PCM_SAMPLE_RATE), '-f', 'f32le', '-acodec', 'pcm_f32le', 'pipe:1');

  const proc = spawnTool('ffmpeg', args, { signal, tools });
  try {
    // Each chunk owns its memory (the consumer may keep it); `buf` is a byte view of the same memory.
    let pcm = new Float32Array(chunkBytes / 4);
    let buf = Buffer.from(pcm.buffer);
    let filled = 0;
    for await (const piece of proc.stdout as AsyncIterable<Buffer>) {
      let offset = 0;
      while (offset < piece.length) {
        const n = Math.min(chunkBytes - filled, piece.length - offset);
        piece.copy(buf, filled, offset, offset + n);
        filled += n;
        offset += n;
        if (filled === chunkBytes) {
          yield pcm;
          pcm = new Float32Array(chunkBytes / 4);
          buf = Buffer.from(pcm.buffer);
          filled = 0;
        }
      }
    }
    try {
      await proc.done;
    } catch (e) {
      if (streamIndex === undefined && e instanceof ToolError && NO_AUDIO.test(e.stderr)) return;
      throw e;
    }
    const whole = filled - (filled % 4);
    if (whole > 0) yield pcm.slice(0, whole / 4);
  } finally {
    proc.kill();
  }
}
