import { extname } from 'node:path';

/** A file the scan could not use, by its path relative to the folder. */
export interface ScanProblem {
  path: string;
  reason: string;
  /** The reason as a code a page can say in its language (a task failure code), when there is one. */
  code?: string;
}

/**
 * The result of a scan task, also kept on the folder. Every entry the walk found lands in exactly one of
 * added, changed, moved, unchanged, skipped and failed, so `found` is their sum (`failed` counted by its
 * length); `removed` counts items of files that are gone.
 */
export interface ScanResult {
  folder_id: string;
  /** Entries found (media or not; excluded globs and vidx's own folders not counted). */
  found: number;
  added: number;
  changed: number;
  moved: number;
  removed: number;
  unchanged: number;
  /** Entries passed over: files that are not media, links leading outside the media roots, unreadable folders. */
  skipped: number;
  /** Why, for the first {@link MAX_LISTED} of them. */
  skipped_files: ScanProblem[];
  /** Media files that could not be indexed, with the reason (the first {@link MAX_FAILED}). */
  failed: ScanProblem[];
  /**
   * Files indexed with something of theirs not read, with the reason (the first {@link MAX_LISTED}): an EXIF
   * block that could not be read (code `exif_unreadable`), so their date and place came from elsewhere.
   * Absent in the results of scans made before vidx reported it (kept on folders as last_scan_result).
   */
  warnings?: ScanProblem[];
}

/** The skipped list stops growing here (the count goes on). */
const MAX_LISTED = 1000;
/** Failed files are listed up to here, so their count stays the list's length for any real folder. */
const MAX_FAILED = 10_000;

/** Subtitle files: not items, but read beside the media file they belong to. */
const SUBTITLE_EXTENSIONS = new Set(['.srt', '.vtt', '.ass', '.ssa', '.sub']);

/**
 * Whether a folder file is a subtitle file.
 * @example
 * isSubtitle('trip.de.srt'); // true
 */
export function isSubtitle(rel: string): boolean {
  return SUBTITLE_EXTENSIONS.has(extname(rel).toLowerCase());
}

/**
 * Why a file that is not media was skipped, in words: subtitles are read with their media file.
 * @example
 * notMediaReason('notes.txt', 'read as tty'); // 'not a media file: read as tty'
 */
export function notMediaReason(rel: string, why: string): string {
  return isSubtitle(rel) ? 'subtitles: read with the media file of the same name' : `not a media file: ${why}`;
}

/**
 * Counts what a scan did with each entry, with the bounded lists of skipped and failed files.
 * @example
 * const tally = new ScanTally(folder.folder_id);
 * tally.skip('notes.txt', 'not a media file: …', 'not_media');
 * tally.result.skipped; // 1
 */
export class ScanTally {
  readonly result: ScanResult;

  constructor(folderId: string) {
    this.result = { folder_id: folderId, found: 0, added: 0, changed: 0, moved: 0, removed: 0, unchanged: 0, skipped: 0, skipped_files: [], failed: [], warnings: [] };
  }

  skip(path: string, reason: string, code?: string | null): void {
    this.result.skipped++;
    if (this.result.skipped_files.length < MAX_LISTED) this.result.skipped_files.push(problem(path, reason, code));
  }

  /** A file indexed with a warning (it counts where it was counted: added or changed). */
  warn(path: string, reason: string, code: string): void {
    this.result.warnings ??= [];
    if (this.result.warnings.length < MAX_LISTED) this.result.warnings.push(problem(path, reason, code));
  }

  fail(path: string, reason: string, code?: string | null): void {
    if (this.result.failed.length < MAX_FAILED) this.result.failed.push(problem(path, reason, code));
  }
}

function problem(path: string, reason: string, code?: string | null): ScanProblem {
  return { path, reason, ...(code ? { code } : {}) };
}
