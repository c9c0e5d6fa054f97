import type { FileAccess } from './file-access.js';
import { looksLikePicture } from './still-image.js';

/** ISO-BMFF boxes a file may open with (`ftyp`; old QuickTime files start with one of the others). */
const BMFF_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot']);

/**
 * Whether a file's first bytes are those of an audio, video or picture container vidx reads: MP4/MOV/HEIF/3GP,
 * Matroska/WebM, RIFF (AVI, WAV, WebP), Ogg, FLAC, MP3 (ID3 or frame sync), AAC (ADTS), MPEG-TS/PS, FLV,
 * ASF/WMV, AMR, CAF, JPEG, PNG, GIF, TIFF. Text (a log, notes, subtitles) never matches.
 * @example
 * looksLikeMediaHead(Buffer.from('2026-11-27 INFO started')); // false
 */
export function looksLikeMediaHead(head: Uint8Array): boolean {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const ascii = b.subarray(0, 12).toString('latin1');
  const hex = b.subarray(0, 4).toString('hex');
  return (
    BMFF_BOXES.has(ascii.slice(4, 8)) ||
    hex === '1a45dfa3' || ascii.startsWith('RIFF') || ascii.startsWith('OggS') || ascii.startsWith('fLaC') ||
    ascii.startsWith('ID3') || ascii.startsWith('FLV') || ascii.startsWith('#!AMR') || ascii.startsWith('caff') ||
    hex === '3026b275' || hex === '000001ba' || hex === '000001b3' || looksLikePicture(b) ||
    // MPEG audio frame sync (MP3, ADTS AAC): eleven set bits.
    (b.length >= 2 && b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) ||
    // MPEG-TS: a sync byte every 188 bytes.
    (b[0] === 0x47 && (b.length < 189 || b[188] === 0x47))
  );
}

/** ISO-BMFF major brands by the extension files of them carry. */
const BRANDS: [RegExp, string][] = [
  [/^(heic|heix|heim|heis|hevc|hevx)$/, '.heic'],
  [/^(mif1|msf1)$/, '.heif'],
  [/^(avif|avis)$/, '.avif'],
  [/^qt {2}$/, '.mov'],
  [/^(M4A |M4B )$/, '.m4a'],
  [/^3g/, '.3gp'],
];

/**
 * The extension a file's content calls for, from its first bytes (at least 64): `.mp4`, `.mov`, `.heic`,
 * `.mkv`, `.webm`, `.avi`, `.wav`, `.webp`, `.ogg`, `.flac`, `.mp3`, `.aac`, `.flv`, `.wmv`, `.amr`, `.caf`,
 * `.mpg`, `.ts`, `.jpg`, `.png`, `.gif`, `.tif`; null for anything else. vidx keeps an upload under it, never
 * under the name the caller gave (`media.html` would be served as a web page).
 * @example
 * mediaExtension(readFirstBytes('clip')); // '.mp4'
 */
export function mediaExtension(head: Uint8Array): string | null {
  if (!looksLikeMediaHead(head)) return null;
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const ascii = b.subarray(0, 64).toString('latin1');
  const hex = b.subarray(0, 4).toString('hex');
  if (BMFF_BOXES.has(ascii.slice(4, 8))) {
    const brand = ascii.slice(4, 8) === 'ftyp' ? ascii.slice(8, 12) : 'qt  ';
    return BRANDS.find(([re]) => re.test(brand))?.[1] ?? '.mp4';
  }
  if (hex === '1a45dfa3') return ascii.includes('webm') ? '.webm' : '.mkv';
  if (ascii.startsWith('RIFF')) return ({ 'AVI ': '.avi', WAVE: '.wav', WEBP: '.webp' } as Record<string, string>)[ascii.slice(8, 12)] ?? null;
  const starts: [string, string][] = [['OggS', '.ogg'], ['fLaC', '.flac'], ['ID3', '.mp3'], ['FLV', '.flv'], ['#!AMR', '.amr'], ['caff', '.caf'], ['GIF8', '.gif']];
  const named = starts.find(([sig]) => ascii.startsWith(sig));
  if (named) return named[1];
  const pictures: [string, string][] = [['ffd8ff', '.jpg'], ['89504e47', '.png'], ['49492a00', '.tif'], ['4d4d002a', '.tif'], ['3026b275', '.wmv'], ['000001ba', '.mpg'], ['000001b3', '.mpg']];
  const byHex = pictures.find(([sig]) => b.subarray(0, 4).toString('hex').startsWith(sig));
  if (byHex) return byHex[1];
  if (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) return ((b[1] ?? 0) & 0x06) === 0 ? '.aac' : '.mp3';
  return b[0] === 0x47 ? '.ts' : null;
}

/**
 * Reads a file's first bytes (through the file-access rule) and tells whether they open a media container:
 * lets a folder scan skip a file that is not media at once instead of waiting for it to hold still.
 * A file that cannot be read, or is still empty, is not taken for media here.
 * @example
 * await startsLikeMedia(files, '/media/app.log'); // false
 */
export async function startsLikeMedia(files: FileAccess, file: string): Promise<boolean> {
  try {
    const fh = await files.openCheckedFile(file);
    try {
      const head = Buffer.alloc(192);
      const { bytesRead } = await fh.read(head, 0, head.length, 0);
      return bytesRead > 0 && looksLikeMediaHead(head.subarray(0, bytesRead));
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}
