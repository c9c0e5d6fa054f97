import { stat } from 'node:fs/promises';
import exifr from 'exifr';
import { basename } from 'node:path';
import { dateFromFileName } from './filename-date.js';
import { heifExif, isBmff } from './heif-exif.js';
import { probeMedia } from './probe.js';
import type { MediaTools } from './binaries.js';
import { type Message, msg } from '../messages/index.js';

/** When and where a file was recorded, and which source said so. */
export interface CaptureInfo {
  /** ISO 8601 (UTC). */
  capturedAt: string;
  /**
   * `metadata`: the file states it (EXIF DateTimeOriginal, a container's creation_time); `filename`: the
   * file's name states it (`IMG_20190714_093012`, see {@link dateFromFileName}); `file`: only a file-system date.
   */
  source: 'metadata' | 'filename' | 'file';
  latitude: number | null;
  longitude: number | null;
  /** Why the content's metadata could not be read (see {@link ContentCapture}), or null. */
  warning: ExifWarning | null;
}

/**
 * Reads ISO 6709 coordinates as phones and cameras write them in the container's `location` tag.
 * @example
 * parseIso6709('+48.8577+002.2950+035.000/'); // { latitude: 48.8577, longitude: 2.295 }
 */
export function parseIso6709(text: string | undefined): { latitude: number; longitude: number } | null {
  const m = text ? /^([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)/.exec(text.trim()) : null;
  if (!m) return null;
  const latitude = Number(m[1]);
  const longitude = Number(m[2]);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

function validDate(d: unknown): Date | null {
  return d instanceof Date && Number.isFinite(d.getTime()) && d.getUTCFullYear() > 1900 ? d : null;
}

/** The EXIF tags vidx reads: the recording time and the GPS point. */
const EXIF_TAGS = ['DateTimeOriginal', 'CreateDate', 'GPSLatitude', 'GPSLongitude', 'GPSLatitudeRef', 'GPSLongitudeRef'];

type ExifTags = { DateTimeOriginal?: unknown; CreateDate?: unknown; latitude?: number; longitude?: number; errors?: unknown[] };

/**
 * The EXIF tags of a picture's bytes, or why its EXIF block cannot be read. A HEIF picture's block is found
 * by {@link heifExif} (exifr misplaces it in libheif's files) and handed to exifr as TIFF bytes.
 */
async function exifTags(bytes: Uint8Array): Promise<{ tags: ExifTags | undefined; warning: ExifWarning | null }> {
  let source: Uint8Array = bytes;
  if (isBmff(bytes)) {
    const found = heifExif(bytes);
    if ('none' in found) return { tags: undefined, warning: null };
    if ('problem' in found) return { tags: undefined, warning: exifWarning(found.problem) };
    source = found.tiff;
  }
  try {
    const tags = (await exifr.parse(source, { pick: EXIF_TAGS, gps: true })) as ExifTags | undefined;
    // exifr answers a block it cannot read with { errors: [...] } instead of throwing.
    const first = tags?.errors?.[0];
    return { tags, warning: first === undefined ? null : exifWarning(first instanceof Error ? first.message : String(first)) };
  } catch {
    // exifr throws for formats it does not read (WebP, GIF): they hold no EXIF vidx could take, which is no fault.
    return { tags: undefined, warning: null };
  }
}

/** A warning that a picture's EXIF block could not be read, as a message: the index task says it in the reader's language. */
export type ExifWarning = Message<'analysis_exif_unreadable'>;

// exifr's reason is English words: said as given in every language.
const exifWarning = (reason: string): ExifWarning => msg('analysis_exif_unreadable', { reason });

async function fromExif(file: string, tools: MediaTools): Promise<Omit<ContentCapture, 'capturedAt'> & { capturedAt: string }> {
  // exifr reads only the few EXIF blocks it needs; a picture without EXIF gives undefined.
  // Bytes read through the file-access rule (a picture is small); exifr never opens the name itself.
  const bytes = await tools.files.readCheckedFile(file).catch(() => null);
  const { tags, warning } = bytes ? await exifTags(bytes) : { tags: undefined, warning: null };
  const when = validDate(tags?.DateTimeOriginal) ?? validDate(tags?.CreateDate);
  const lat = tags?.latitude;
  const lon = tags?.longitude;
  const gps = typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon);
  return { capturedAt: when?.toISOString() ?? '', source: when ? 'metadata' : null, latitude: gps ? lat : null, longitude: gps ? lon : null, warning };
}

async function fromContainer(file: string, tools: MediaTools, signal?: AbortSignal): Promise<Omit<ContentCapture, 'capturedAt'> & { capturedAt: string }> {
  const probe = await probeMedia(file, { signal, checkIntegrity: false, tools }).catch(() => null);
  const tags = probe?.tags ?? {};
  const when = tags.creation_time ? validDate(new Date(tags.creation_time)) : null;
  const where = parseIso6709(tags.location ?? tags['com.apple.quicktime.location.iso6709']);
  return { capturedAt: when?.toISOString() ?? '', source: when ? 'metadata' : null, latitude: where?.latitude ?? null, longitude: where?.longitude ?? null, warning: null };
}

/** What the content itself says about capture time and place (null fields when it says nothing). */
export interface ContentCapture {
  capturedAt: string | null;
  source: 'metadata' | null;
  latitude: number | null;
  longitude: number | null;
  /** Why the content's metadata could not be read (a malformed EXIF block), for the task's warnings; null when nothing went wrong. */
  warning: ExifWarning | null;
}

/**
 * The capture time and place the content states: EXIF DateTimeOriginal (and GPS) for pictures, the
 * container's creation_time (and ISO 6709 location) for audio and video. Equal for every copy of a file.
 * @example
 * await readContentCapture('/media/IMG_0001.jpg', 'image', tools); // { capturedAt: '2024-07-14T09:12:00.000Z', source: 'metadata', … }
 */
export async function readContentCapture(file: string, kind: 'image' | 'video' | 'audio', tools: MediaTools, signal?: AbortSignal): Promise<ContentCapture> {
  const found = kind === 'image' ? await fromExif(file, tools) : await fromContainer(file, tools, signal);
  return { ...found, capturedAt: found.source ? found.capturedAt : null };
}

/**
 * The capture time of a media file: what its content states (see {@link readContentCapture}), else what
 * its name states (see {@link dateFromFileName}), else the file's modification time; GPS coordinates when the file has them. `file` must already have passed the
 * media-roots check. `content` reuses an earlier reading of the same content.
 * @example
 * await readCaptureInfo('/media/IMG_0001.jpg', 'image', tools);
 * // { capturedAt: '2024-07-14T09:12:00.000Z', source: 'metadata', latitude: 48.85, longitude: 2.29 }
 */
export async function readCaptureInfo(file: string, kind: 'image' | 'video' | 'audio', tools: MediaTools, signal?: AbortSignal, content?: ContentCapture): Promise<CaptureInfo> {
  const found = content ?? (await readContentCapture(file, kind, tools, signal));
  const known = { latitude: found.latitude, longitude: found.longitude, warning: found.warning };
  if (found.source && found.capturedAt) return { capturedAt: found.capturedAt, source: found.source, ...known };
  // A copied or synced file's modification time is when it was copied; the name phones give keeps the day.
  const named = dateFromFileName(basename(file));
  if (named) return { capturedAt: named, source: 'filename', ...known };
  const st = await stat(file);
  return { capturedAt: st.mtime.toISOString(), source: 'file', ...known };
}
