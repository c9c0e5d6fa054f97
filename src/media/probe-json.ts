/** Video stream facts. `width`/`height` are as stored; `rotation` says how the picture is turned for display. */
export interface VideoInfo {
  /** Stream index in the container (for `-map 0:<index>`). */
  index: number;
  width: number;
  height: number;
  /** Degrees clockwise (0, 90, 180, 270) the stored picture is turned for display; ffmpeg applies it when decoding. */
  rotation: number;
  /** Average frame rate, or the nominal rate when the average is unknown; 0 if neither is known. */
  fps: number;
  codec: string;
  /** Sample (pixel) aspect ratio; 1 for square pixels, e.g. 16/15 for PAL DVD. */
  sar: number;
}

/** Audio stream facts. */
export interface AudioInfo {
  index: number;
  sampleRate: number;
  channels: number;
  codec: string;
  /** As tagged in the container (usually ISO 639-2, e.g. `deu`); absent when untagged or `und`. */
  language?: string;
}

/** One subtitle stream. */
export interface SubtitleStreamInfo {
  /** Stream index in the container. */
  index: number;
  /** Position among subtitle streams only (for `-map 0:s:<subIndex>`). */
  subIndex: number;
  codec: string;
  /** As tagged in the container (usually ISO 639-2, e.g. `eng`); absent when untagged or `und`. */
  language?: string;
  title?: string;
  /** The container marks this stream as the default one. */
  isDefault: boolean;
}

/** What {@link import('./probe.js').probeMedia} reports about a file. */
export interface MediaProbe {
  durationSec: number;
  /** ffprobe's demuxer name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  formatName: string;
  sizeBytes: number;
  /** Container tags with lower-cased keys (title, artist, creation_time, …). */
  tags: Record<string, string>;
  video?: VideoInfo;
  audio?: AudioInfo;
  subtitles: SubtitleStreamInfo[];
}

/** The subset of `ffprobe -of json -show_format -show_streams` that is read. */
export interface FfprobeJson {
  format?: { format_name?: string; duration?: string; size?: string; tags?: Record<string, unknown> };
  streams?: FfprobeStream[];
}

interface FfprobeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_aspect_ratio?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, unknown>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function rate(v: string | undefined, sep = '/'): number | undefined {
  if (!v) return undefined;
  const [a, b] = v.split(sep).map(Number);
  if (!Number.isFinite(a) || !Number.isFinite(b) || !b || !a) return undefined;
  return a / b;
}

function stringTags(tags: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tags ?? {})) if (v != null) out[k.toLowerCase()] = String(v);
  return out;
}

/**
 * Display rotation, clockwise. ffprobe reports the display matrix angle counter-clockwise
 * (`rotation: -90` is a phone held upright); the legacy `rotate` tag is already clockwise.
 */
function rotationOf(s: FfprobeStream): number {
  const side = s.side_data_list?.find((d) => typeof d.rotation === 'number');
  const tag = num(stringTags(s.tags).rotate);
  const cw = side?.rotation !== undefined ? -side.rotation : (tag ?? 0);
  return ((Math.round(cw / 90) * 90) % 360 + 360) % 360;
}

/** A stream's language tag, unless it is missing or `und` (undetermined). */
function taggedLanguage(s: FfprobeStream): { language?: string } {
  const language = stringTags(s.tags).language;
  return language && language !== 'und' ? { language } : {};
}

function pickDefault(streams: FfprobeStream[]): FfprobeStream | undefined {
  return streams.find((s) => s.disposition?.default === 1) ?? streams[0];
}

/** A stream's own length: ffprobe's `duration`, else Matroska's `DURATION` tag (HH:MM:SS.fraction). */
function streamDuration(s: FfprobeStream): number | undefined {
  const d = num(s.duration);
  if (d !== undefined) return d;
  const m = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(stringTags(s.tags).duration ?? '');
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
}

/** True for streams that can actually be decoded into pictures (not cover art, not unknown codecs). */
function isPictureStream(s: FfprobeStream): boolean {
  return s.codec_type === 'video' && s.disposition?.attached_pic !== 1 && !!s.codec_name && (s.width ?? 0) > 0;
}

/**
 * Turns ffprobe's JSON into a {@link MediaProbe}. Pure; duration may be NaN when nothing states it
 * (probe.ts then measures it).
 * @example
 * const p = parseProbeJson(JSON.parse(stdout), fileSize);
 * p.video?.rotation; // 90 for a portrait phone clip stored landscape
 */
export function parseProbeJson(json: FfprobeJson, fileSize: number): MediaProbe {
  const streams = json.streams ?? [];
  const fmt = json.format ?? {};
  const v = pickDefault(streams.filter(isPictureStream));
  const a = pickDefault(streams.filter((s) => s.codec_type === 'audio' && !!s.codec_name));
  // Subtitle and data tracks may run past the picture and sound (a last cue after the end): they do not
  // count, or a whole file would look longer than its media and fail the truncation check.
  const mediaDurations = streams
    .filter((s) => isPictureStream(s) || (s.codec_type === 'audio' && !!s.codec_name))
    .map(streamDuration)
    .filter((d): d is number => d !== undefined && d > 0);
  const duration = mediaDurations.length ? Math.max(...mediaDurations) : (num(fmt.duration) ?? NaN);

  const subtitles: SubtitleStreamInfo[] = streams
    .filter((s) => s.codec_type === 'subtitle')
    .map((s, subIndex) => {
      const tags = stringTags(s.tags);
      const lang = tags.language?.trim();
      return {
        index: s.index,
        subIndex,
        codec: s.codec_name ?? 'unknown',
        ...(lang && lang.toLowerCase() !== 'und' ? { language: lang } : {}),
        ...(tags.title ? { title: tags.title } : {}),
        isDefault: s.disposition?.default === 1,
      };
    });

  return {
    durationSec: duration,
    formatName: fmt.format_name ?? 'unknown',
    sizeBytes: num(fmt.size) ?? fileSize,
    tags: stringTags(fmt.tags),
    ...(v
      ? {
          video: {
            index: v.index,
            width: v.width ?? 0,
            height: v.height ?? 0,
            rotation: rotationOf(v),
            fps: rate(v.avg_frame_rate) ?? rate(v.r_frame_rate) ?? 0,
            codec: v.codec_name ?? 'unknown',
            sar: rate(v.sample_aspect_ratio, ':') ?? 1,
          },
        }
      : {}),
    ...(a
      ? {
          audio: {
            index: a.index,
            sampleRate: num(a.sample_rate) ?? 0,
            channels: a.channels ?? 0,
            codec: a.codec_name ?? 'unknown',
            ...taggedLanguage(a),
          },
        }
      : {}),
    subtitles,
  };
}

/**
 * Display size of a probed video: non-square pixels stretched to square, then rotated.
 * @example
 * displaySize({ width: 1920, height: 1080, rotation: 90, sar: 1 }); // { width: 1080, height: 1920 }
 */
export function displaySize(v: Pick<VideoInfo, 'width' | 'height' | 'rotation' | 'sar'>): { width: number; height: number } {
  const w = Math.max(1, Math.round(v.width * (v.sar > 0 ? v.sar : 1)));
  return v.rotation % 180 === 90 ? { width: v.height, height: w } : { width: w, height: v.height };
}
