import type { MediaTools } from './binaries.js';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { MediaError } from './errors.js';
import { checkTail, hasFtypHeader } from './integrity.js';
import { parseProbeJson, type FfprobeJson, type MediaProbe } from './probe-json.js';
import { fileUrl, runTool, spawnTool, ToolError } from './run.js';

export type { MediaProbe, VideoInfo, AudioInfo, SubtitleStreamInfo } from './probe-json.js';

/** Options for {@link probeMedia}. */
export interface ProbeOptions {
  signal?: AbortSignal;
  /** The server's tools (FFMPEG_PATH …); default: npm packages, then PATH. */
  tools?: MediaTools;
  /** Decode the last seconds to detect truncation (see integrity.ts). Default true; costs one short ffmpeg run. */
  checkIntegrity?: boolean;
}

/** Demuxers that open things which are not audio or video: still images, ANSI text, subtitle files (animated GIF/APNG count as video). */
const NOT_MEDIA_FORMATS = /^(tty|image2|[a-z0-9]+_pipe|ico|lrc|srt|webvtt|ass|microdvd|subviewer.*|sami|jacosub)$/;

const REFERENCE_FORMAT_NAMES: Record<string, string> = {
  hls: 'HLS playlist (m3u8)', applehttp: 'HLS playlist (m3u8)', dash: 'DASH manifest', concat: 'concat/ffconcat list',
  imf: 'IMF composition playlist', sdp: 'SDP session description', image2: 'numbered image sequence', vobsub: 'VobSub index',
};

function describeReferenceFormat(format: string): string {
  return REFERENCE_FORMAT_NAMES[format] ?? `${format} file`;
}

async function runFfprobe(file: string, signal?: AbortSignal, tools?: MediaTools): Promise<FfprobeJson> {
  const name = basename(file);
  try {
    const { stdout } = await runTool(
      'ffprobe',
      ['-hide_banner', '-v', 'error', '-of', 'json', '-show_format', '-show_streams', '-i', fileUrl(file)],
      { signal, tools },
    );
    return JSON.parse(stdout.toString('utf8')) as FfprobeJson;
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    const refused = /\[(\w+) @ [^\]]*\] Format not on whitelist/.exec(e.stderr);
    if (refused) {
      throw new MediaError(
        'refers_elsewhere',
        `${name} is a ${describeReferenceFormat(refused[1])}: it names other files or URLs, and vidx reads only self-contained media files (give the media file itself)`,
        { cause: e },
      );
    }
    if (/moov atom not found/i.test(e.stderr) && (await hasFtypHeader(file))) {
      throw new MediaError('truncated', `${name} is a truncated MP4/MOV: it has a header but no index (moov atom); the file was cut off or is still being written`, { cause: e });
    }
    if (/Invalid data found|moov atom not found|could not find codec parameters|End of file|Invalid argument|unknown format/i.test(e.stderr)) {
      throw new MediaError('not_media', `${name} is not a media file ffmpeg can read (${e.stderr.trim().split('\n').at(-1) ?? 'unrecognised data'})`, { cause: e });
    }
    throw e;
  }
}

/** Length by reading every packet without decoding, for files whose header states no duration (live WebM recordings). */
async function measureDuration(file: string, signal?: AbortSignal, tools?: MediaTools): Promise<number> {
  const proc = spawnTool('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-i', fileUrl(file), '-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-f', 'null', '-progress', 'pipe:1', '-'], { signal, tools });
  let out = '';
  proc.stdout.setEncoding('utf8');
  for await (const chunk of proc.stdout as AsyncIterable<string>) out = (out + chunk).slice(-4096);
  await proc.done.catch((e: unknown) => {
    if (signal?.aborted) throw e;
  });
  const m = [...out.matchAll(/^out_time_(?:us|ms)=(\d+)$/gm)].at(-1);
  return m ? Number(m[1]) / 1e6 : 0;
}

/**
 * Probes a file with ffprobe and checks it is usable media. Throws {@link MediaError} with code
 * `empty` (0 bytes), `not_media` (unrecognised, a directory, a still image or a subtitle file),
 * `truncated` (MP4 without index, or data ending before the stated duration) or `no_streams`
 * (no decodable audio or video; cover art does not count as video).
 * @example
 * const p = await probeMedia('/media/talk.mp4', { signal });
 * p.durationSec; p.video?.width; p.audio?.sampleRate; p.subtitles[0]?.language;
 */
export async function probeMedia(file: string, opts: ProbeOptions = {}): Promise<MediaProbe> {
  const { signal, checkIntegrity = true, tools } = opts;
  const name = basename(file);
  const st = await stat(file);
  if (!st.isFile()) throw new MediaError('not_media', `${name} is not a regular file`);
  if (st.size === 0) throw new MediaError('empty', `${name} is empty (0 bytes)`);

  const probe = parseProbeJson(await runFfprobe(file, signal, tools), st.size);
  if (NOT_MEDIA_FORMATS.test(probe.formatName)) {
    throw new MediaError('not_media', `${name} is not audio or video (read as ${probe.formatName})`);
  }
  if (!probe.video && !probe.audio) {
    const what = probe.subtitles.length ? 'only subtitle streams' : 'no audio or video stream';
    throw new MediaError('no_streams', `${name} has ${what} that can be decoded`);
  }
  if (!Number.isFinite(probe.durationSec)) probe.durationSec = await measureDuration(file, signal, tools);
  if (checkIntegrity) {
    const tail = await checkTail(file, probe, { signal, tools });
    if (tail.truncated) {
      throw new MediaError(
        'truncated',
        `${name} is truncated: the container says ${probe.durationSec.toFixed(1)} s but data ends at ${tail.decodedEndSec.toFixed(1)} s${tail.partialFile ? ' (demuxer reported a partial file)' : ''}`,
      );
    }
  }
  if (probe.durationSec <= 0) throw new MediaError('no_streams', `${name} contains no decodable audio or video data`);
  return probe;
}
