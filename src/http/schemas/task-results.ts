import { z } from '@hono/zod-openapi';
import type { IndexResult as IndexResultType } from '../../services/analysis/index-task.js';
import type { ScanResult as ScanResultType } from '../../services/folders/scan.js';
import type { ReindexResult as ReindexResultType } from '../../services/analysis/reindex-task.js';
import type { WarningsSaid } from '../../services/analysis/present.js';
import type { SameShape } from './explore.js';

/**
 * The result of a completed POST /index task.
 * @example
 * IndexResult.parse(task.result).status; // 'indexed'
 */
export const IndexResult = z
  .object({
    collection: z.string(),
    media_id: z.string(),
    status: z.enum(['indexed', 'reindexed', 'skipped']).openapi({ description: 'skipped: the media_id was already in the collection and reindex_if_exists was false' }),
    reason: z.string().optional().openapi({ description: 'Why it was skipped' }),
    episodes: z.number().int().openapi({ description: 'Episodes stored (0 when skipped)' }),
    duration: z.number().nullable().openapi({ description: 'Seconds; null when unknown' }),
    transcript_source: z.enum(['sidecar', 'embedded', 'asr', 'none']).nullable().openapi({ description: 'Where the transcript came from; null when skipped' }),
    warnings: z.array(z.string()).openapi({ description: 'Capabilities that were missing or failed, in words: German when Accept-Language prefers de, else English' }),
  })
  .openapi('IndexResult', { description: 'Result of a completed POST /index task' });

const ScanProblem = z
  .object({
    path: z.string().openapi({ description: 'Relative to the folder' }),
    reason: z.string(),
    code: z.string().optional().openapi({ description: 'The reason as a code (not_media, truncated, outside_roots, subtitles, still_written, …), when it has one' }),
  })
  .openapi('ScanProblem');

/**
 * The result of a completed folder scan (POST /collections/{collection_id}/folders/{folder_id}/scan, or a watched folder).
 * @example
 * ScanResult.parse(task.result).added; // 12
 */
export const ScanResult = z
  .object({
    folder_id: z.string(),
    found: z.number().int().openapi({ description: 'Entries found, media or not (excluded globs not counted); = added + changed + moved + unchanged + skipped + the failed files' }),
    added: z.number().int(),
    changed: z.number().int().openapi({ description: 'Reindexed because their content changed' }),
    moved: z.number().int().openapi({ description: 'Moved or renamed files that kept their item' }),
    removed: z.number().int().openapi({ description: 'Items whose file is gone' }),
    unchanged: z.number().int(),
    skipped: z.number().int().openapi({ description: 'Entries passed over: files that are not media, symbolic links leading outside the media roots, unreadable folders' }),
    skipped_files: z.array(ScanProblem).openapi({ description: 'The skipped entries with the reason (at most 1000)' }),
    failed: z.array(ScanProblem).openapi({ description: 'Media files that could not be indexed, with the reason (at most 10,000)' }),
    warnings: z
      .array(ScanProblem)
      .optional()
      .openapi({ description: 'Files indexed with something of theirs not read, with the reason (at most 1000): an EXIF block that could not be read (code `exif_unreadable`), so the date and place came from the name or the file date. Absent in results of scans made before vidx reported it' }),
  })
  .openapi('ScanResult', { description: 'Result of a completed folder scan task (endpoint /folders/scan); the folder keeps its last one as last_scan_result' });

/**
 * The result of a completed re-index task.
 * @example
 * ReindexResult.parse(task.result).failed; // [{ media_id: 'memo', reason: 'memo.m4a does not exist…', … }]
 */
export const ReindexResult = z
  .object({
    collection: z.string(),
    total: z.number().int().openapi({ description: 'Items the task went through' }),
    reindexed: z.number().int(),
    failed: z
      .array(z.object({ media_id: z.string(), title: z.string().nullable(), reason: z.string(), retryable: z.boolean() }).openapi('ReindexFailure'))
      .openapi({ description: 'Each item that failed, alone (its source is gone, it is no longer media, …); the others were re-indexed' }),
  })
  .openapi('ReindexResult', { description: 'Result of a completed re-index task' });

// The documented shapes and the services' types must not drift apart: a change to one fails the typecheck here.
true satisfies SameShape<z.output<typeof IndexResult>, WarningsSaid<IndexResultType>>;
true satisfies SameShape<z.output<typeof ScanResult>, ScanResultType>;
true satisfies SameShape<z.output<typeof ReindexResult>, ReindexResultType>;
