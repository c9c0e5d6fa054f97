import { z } from '@hono/zod-openapi';
import { LANGS } from '../../messages/index.js';
import { CollectionId } from './common.js';
import { ScanResult } from './task-results.js';

export const Folder = z
  .object({
    folder_id: z.string(),
    collection_id: CollectionId,
    path: z.string().openapi({ description: 'Real path of the folder (inside VIDX_MEDIA_ROOTS)' }),
    recursive: z.boolean(),
    exclude: z.array(z.string()).openapi({ description: 'Globs over paths relative to the folder; matching files and folders are skipped' }),
    watch: z.boolean().openapi({ description: 'File events trigger a scan within seconds; plus a full rescan every VIDX_FOLDER_RESCAN_MINUTES' }),
    created_at: z.string(),
    last_scan: z.string().nullable().openapi({ description: 'When the last scan completed' }),
    scan_task_id: z.string().nullable().openapi({ description: 'The latest scan task (GET /tasks/{task_id})' }),
    language: z.enum(LANGS).nullable().openapi({ description: "vidx extra: the index_language of the folder's files; null lets each file's speech and text decide" }),
    last_scan_result: ScanResult.omit({ folder_id: true }).nullable().openapi({ description: "The last finished scan's counts (they add up) and its skipped and failed files with reasons; null before the first" }),
  })
  .openapi('Folder');

export const FolderCreate = z
  .object({
    path: z.string().min(1).max(4096).openapi({ description: 'An absolute path of a folder inside VIDX_MEDIA_ROOTS (after symbolic links)' }),
    recursive: z.boolean().optional().default(true),
    exclude: z.array(z.string().min(1).max(1000)).max(100).optional().default([]).openapi({ example: ['**/*.tmp', 'private/**'] }),
    watch: z.boolean().optional().default(true),
    language: z
      .enum(['en', 'de'])
      .nullable()
      .optional()
      .default(null)
      .openapi({ description: "vidx extra: the index_language of the folder's files (OCR letters, summaries); unset or null lets each file's speech and text decide" }),
  })
  .strict()
  .openapi('FolderCreate');

export const FolderParams = z.object({
  collection_id: CollectionId.openapi({ param: { name: 'collection_id', in: 'path' } }),
  folder_id: z.string().min(1).max(100).openapi({ param: { name: 'folder_id', in: 'path' } }),
});

export const FolderDeleteQuery = z.object({
  remove_items: z
    .enum(['true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'])
    .optional()
    .transform((v) => v === undefined || ['true', '1'].includes(v.toLowerCase()))
    .openapi({ type: 'boolean', default: true, description: "true: the folder's items leave the collection; false: they stay" }),
});

