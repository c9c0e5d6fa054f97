import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { type FileAccess, resolveInsideRoots, SourceError } from '../media/index.js';
import type { Caller } from './caller.js';
import type { CollectionService } from './collections.js';
import { fieldProblem, Problem } from './errors.js';
import type { TaskService, TaskView } from './tasks.js';
import { type Message, msg, type Lang } from '../messages/index.js';
import type { StorageRepository } from '../store/storage.js';

/** The video object of SPEC 2.2 as validated by the HTTP layer. */
export interface VideoInput {
  path?: string | null;
  url?: string | null;
  content?: string | null;
  media_id?: string | null;
  title?: string | null;
  additional_metadata?: Record<string, unknown> | null;
  /** vidx extra: when the file was last changed where the caller has it (the page sends `File.lastModified`). */
  file_modified_at?: string | null;
}

/** The video object as stored in a task: every field present, unset ones null (SPEC 2.4). */
export interface StoredVideo {
  path: string | null;
  url: string | null;
  content: string | null;
  media_id: string;
  title: string | null;
  additional_metadata: Record<string, unknown> | null;
  /** vidx extra, only when given: the caller's modification time of the file (a date of the file, never of the recording). */
  file_modified_at?: string;
}

/**
 * An uploaded file a task takes over (it deletes the file when done). `stored` is the name of the file in
 * the uploads folder, never a full path: task data is shown to callers and sent to webhooks.
 */
export interface TaskUpload {
  stored: string;
  filename: string;
  size: number;
}

/**
 * Where a task's upload lies. Tasks stored before uploads were named by `stored` carry a `path`; only its
 * file name is used, so no stored value can point outside the uploads folder.
 * @example
 * uploadPath('/data/uploads', { stored: '0b6c….upload', filename: 'a.mp4', size: 1 }); // '/data/uploads/0b6c….upload'
 */
export function uploadPath(uploadsFolder: string, upload: TaskUpload | { path: string }): string {
  const name = 'stored' in upload ? upload.stored : upload.path;
  if (typeof name !== 'string' || !name) throw new Error('task upload has no stored file name');
  return join(uploadsFolder, basename(name));
}

/** Input of an /index task. */
export interface IndexTaskData {
  video: StoredVideo;
  collection: string;
  /** null (folder scans without a language): the media decides. */
  index_language: Lang | null;
  reindex_if_exists: boolean;
  upload: TaskUpload | null;
}

/** Input of an /analyze task. */
export interface AnalyzeTaskData {
  video: StoredVideo;
  upload: TaskUpload | null;
}

/** Checks a `path` source before a task is made; the media layer checks again when it opens the file. */
export type PathGuard = (path: string) => Promise<{ ok: true } | { ok: false; reason: string | Message }>;

/**
 * The path guard of a server: inside the media roots, never inside the data dir.
 * @example
 * await mediaPathGuard(files, ['/home/me'], '/home/me/.local/share/vidx')('/etc/passwd'); // { ok: false, reason: '…outside…' }
 */
export function mediaPathGuard(files: FileAccess, mediaRoots: readonly string[], dataDir: string): PathGuard {
  return async (path) => {
    try {
      await resolveInsideRoots(files, path, mediaRoots, [dataDir]);
      return { ok: true };
    } catch (err) {
      if (err instanceof SourceError) return { ok: false, reason: err.text ?? err.message };
      throw err;
    }
  };
}

/**
 * Turns validated /index and /analyze requests into queued tasks.
 * @example
 * submissions.index(caller, { video: { path: '/home/me/a.mp4' }, collection: 'trips', index_language: 'en', reindex_if_exists: false }, null);
 */
export class SubmissionService {
  constructor(
    private readonly tasks: TaskService,
    private readonly collections: CollectionService,
    private readonly guardPath: PathGuard,
    private readonly itemExists: (collectionPk: number, mediaId: string) => boolean,
    private readonly storage: Pick<StorageRepository, 'removeUpload'>,
  ) {}

  /** Removes an upload no task took over (the submission was refused after the body was read). */
  discardUpload(upload: TaskUpload): void {
    removeTaskUpload({ upload }, this.storage);
  }

  async index(
    caller: Caller,
    input: { video: VideoInput; collection: string; index_language: Lang; reindex_if_exists: boolean },
    upload: TaskUpload | null,
  ): Promise<TaskView> {
    const collection = this.collections.writable(caller, input.collection);
    const data: IndexTaskData = {
      video: await this.video(input.video, upload),
      collection: input.collection,
      index_language: input.index_language,
      reindex_if_exists: input.reindex_if_exists,
      upload,
    };
    return this.tasks.create(caller, 'index', data, collection.pk);
  }

  /**
   * Queues a re-index of the listed items of a collection (all of them when none are listed): the owner's
   * or an admin's. Items not in the collection are refused (422) before anything is queued.
   */
  reindex(caller: Caller, collectionId: string, mediaIds: string[] | null): TaskView {
    const collection = this.collections.writable(caller, collectionId);
    const ids = mediaIds ? [...new Set(mediaIds)] : null;
    const missing = (ids ?? []).filter((id) => !this.itemExists(collection.pk, id));
    if (missing.length) {
      const ids = `${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`;
      throw fieldProblem('invalid', 'media_ids', msg('not_in_collection', { collection: collectionId, ids }));
    }
    return this.tasks.create(caller, 'reindex', { collection: collectionId, media_ids: ids }, collection.pk);
  }

  async analyze(caller: Caller, input: { video: VideoInput }, upload: TaskUpload | null): Promise<TaskView> {
    const data: AnalyzeTaskData = { video: await this.video(input.video, upload), upload };
    return this.tasks.create(caller, 'analyze', data);
  }

  private async video(v: VideoInput, upload: TaskUpload | null): Promise<StoredVideo> {
    if (v.content && !upload) {
      throw new Problem('invalid', msg('content_part_missing', { name: v.content }), [
        { field: 'video.content', message: msg('names_no_upload') },
      ]);
    }
    if (v.path) {
      const check = await this.guardPath(v.path);
      if (!check.ok) throw fieldProblem('invalid', 'video.path', check.reason);
    }
    return {
      path: v.path ?? null,
      url: v.url ?? null,
      content: v.content ?? null,
      media_id: v.media_id ?? randomUUID(),
      title: v.title ?? null,
      additional_metadata: v.additional_metadata ?? null,
      ...(v.file_modified_at ? { file_modified_at: v.file_modified_at } : {}),
    };
  }
}

/**
 * Deletes the upload a task took over, if any; only files inside the uploads folder are touched.
 * @example
 * removeTaskUpload(task.data, store.storage);
 */
export function removeTaskUpload(data: unknown, storage: Pick<StorageRepository, 'removeUpload'>): void {
  const upload = (data as { upload?: Partial<TaskUpload> & { path?: string } | null } | null)?.upload;
  const name = upload?.stored ?? upload?.path;
  if (typeof name === 'string' && name) storage.removeUpload(name);
}
