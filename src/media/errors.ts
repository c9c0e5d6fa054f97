import { english, type Message } from '../messages/index.js';

/**
 * Why a file cannot be used as media. Each code has a message that names the file and says what is wrong.
 * - `empty`: zero bytes.
 * - `not_media`: no demuxer recognises it (text, HTML, random bytes).
 * - `truncated`: recognised, but data the container promises is missing (see probe.ts for what is checked).
 * - `no_streams`: opens, but has no usable audio or video stream (e.g. only subtitles or a cover picture).
 * - `no_video`: the operation needs pictures and the file has none (audio-only).
 * - `no_frame`: no frame could be decoded at the requested time.
 * - `refers_elsewhere`: a playlist or reference list (HLS, DASH, concat, …) that would make ffmpeg open
 *   other files or URLs; vidx refuses it instead of following it.
 * - `unsupported_format`: recognised (the message names the container or codec), but vidx cannot decode
 *   it: a picture cut off or damaged, one declaring more pixels than vidx decodes, a codec no decoder reads.
 */
export type MediaErrorCode = 'empty' | 'not_media' | 'truncated' | 'no_streams' | 'no_video' | 'no_frame' | 'refers_elsewhere' | 'unsupported_format';

/**
 * An expected problem with a media file, with a message meant for a person.
 * @example
 * try { await probeMedia(file); } catch (e) { if (e instanceof MediaError && e.code === 'truncated') skip(file); }
 */
export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaError';
  }
}

/**
 * Why a video input could not be turned into a local file.
 * - `invalid_input`: not exactly one of path / url / content, or a malformed value.
 * - `outside_roots`: a path (after resolving `..` and symlinks) is not inside a configured media root.
 * - `not_found` / `not_a_file`: the path does not exist, or is a directory, FIFO or device.
 * - `unsupported_url`: not http(s).
 * - `unreachable`: the host cannot be reached, or the outbound policy does not allow its address (one
 *   message for both, so nothing tells open ports, closed ports and refused addresses apart).
 * - `http_status`, `network`, `timeout`: the download failed.
 * - `too_large`: the download exceeded the byte limit.
 * - `ytdlp_missing` / `ytdlp_failed`: the URL is a web page and yt-dlp is absent or failed.
 */
export type SourceErrorCode =
  | 'invalid_input'
  | 'outside_roots'
  | 'not_found'
  | 'not_a_file'
  | 'unsupported_url'
  | 'unreachable'
  | 'http_status'
  | 'network'
  | 'timeout'
  | 'too_large'
  | 'ytdlp_missing'
  | 'ytdlp_failed';

/**
 * An expected failure to resolve a video input, with a message meant for the API caller: English text, or a
 * message of src/messages (then `text` keeps its key, so the caller's answer can be said in German too).
 * @example
 * throw new SourceError('outside_roots', msg('path_outside_roots', { path: '/etc/passwd' }));
 */
export class SourceError extends Error {
  /** The message as a key and parameters, when it was given so. */
  readonly text?: Message;

  constructor(
    readonly code: SourceErrorCode,
    message: string | Message,
    options?: { cause?: unknown },
  ) {
    super(typeof message === 'string' ? message : english(message), options);
    this.name = 'SourceError';
    if (typeof message !== 'string') this.text = message;
  }
}
