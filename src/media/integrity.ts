import type { MediaTools } from './binaries.js';
import { open } from 'node:fs/promises';
import { spawnTool } from './run.js';
import type { MediaProbe } from './probe-json.js';

/** How many seconds at the end are decoded to check that they exist. */
const TAIL_SEC = 2;
/** How far the decoded end may fall short of the stated duration before the file counts as truncated. */
const TOLERANCE_SEC = 1.5;

/** What the tail check found. */
export interface TailCheck {
  /** Where decoding actually stopped, in seconds from the start. */
  decodedEndSec: number;
  /** The demuxer hit the end of the file while data was still expected ("partial file"). */
  partialFile: boolean;
  truncated: boolean;
}

/**
 * True when the file starts with an ISO-BMFF `ftyp` box: an MP4/MOV whose index (`moov`) is missing
 * was cut off (or is still being written), it is not "not media".
 * @example
 * if (/moov atom not found/.test(stderr) && (await hasFtypHeader(file))) code = 'truncated';
 */
export async function hasFtypHeader(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(12);
    const { bytesRead } = await fh.read(buf, 0, 12, 0);
    return bytesRead >= 8 && buf.toString('latin1', 4, 8) === 'ftyp';
  } finally {
    await fh.close();
  }
}

function lastProgressTime(stdout: string): number | undefined {
  // ffmpeg 5 writes both out_time_us and out_time_ms, and both are in microseconds.
  const all = [...stdout.matchAll(/^out_time_(?:us|ms)=(\d+)$/gm)];
  const last = all.at(-1);
  return last ? Number(last[1]) / 1e6 : undefined;
}

/**
 * Decodes the last {@link TAIL_SEC} seconds of the main audio and video streams and compares where
 * decoding stopped with the duration the container states. This catches files cut short whose index or
 * header still promises the full length: fast-start MP4 (`moov` first), MKV/WebM with a Duration
 * element, WAV, MP3 with a Xing/LAME header. It cannot catch formats whose duration is itself
 * estimated from the file size (MPEG-TS, raw ADTS, CBR MP3 without header): those simply look shorter.
 * @example
 * const t = await checkTail(file, probe, { signal });
 * if (t.truncated) throw new MediaError('truncated', `${file} ends at ${t.decodedEndSec}s`);
 */
export async function checkTail(file: string, probe: MediaProbe, opts: { signal?: AbortSignal; tools?: MediaTools } = {}): Promise<TailCheck> {
  const start = Math.max(0, probe.durationSec - TAIL_SEC);
  const maps: string[] = [];
  if (probe.video) maps.push('-map', `0:${probe.video.index}`);
  if (probe.audio) maps.push('-map', `0:${probe.audio.index}`);
  const args = ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-ss', start.toFixed(3), '-i', file, ...maps, '-f', 'null', '-progress', 'pipe:1', '-'];
  const proc = spawnTool('ffmpeg', args, opts);
  let out = '';
  proc.stdout.setEncoding('utf8');
  for await (const chunk of proc.stdout as AsyncIterable<string>) out = (out + chunk).slice(-4096);
  // A decoder error exits non-zero on some inputs; what was decoded still tells us how far the data goes.
  const stderr = await proc.done.then(
    (r) => r.stderr,
    (e: unknown) => {
      if (opts.signal?.aborted) throw e;
      return proc.stderr();
    },
  );
  const decoded = lastProgressTime(out) ?? 0;
  const decodedEndSec = start + decoded;
  const partialFile = /partial file/i.test(stderr);
  const truncated = partialFile || decodedEndSec < probe.durationSec - TOLERANCE_SEC;
  return { decodedEndSec, partialFile, truncated };
}
