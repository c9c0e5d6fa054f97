import type { FileAccess } from '../../media/file-access.js';
import { randomUUID } from 'node:crypto';
import { resolveDirInsideRoots } from '../../media/folder-path.js';
import { SourceError } from '../../media/errors.js';
import { isInside as inside } from '../../media/file-access.js';
import type { FolderRow } from '../../store/folders.js';
import type { Repos } from '../../store/index.js';
import type { Caller } from '../caller.js';
import { nowIso } from '../timestamps.js';
import type { CollectionService } from '../collections.js';
import { fieldProblem, notFound, Problem } from '../errors.js';
import type { ItemService } from '../items.js';
import type { TaskEngine } from '../task-engine.js';
import type { ScanResult } from './scan.js';
import { msg, type Lang } from '../../messages/index.js';


/** A folder as the API shows it. */
export interface FolderView {
  folder_id: string;
  collection_id: string;
  path: string;
  recursive: boolean;
  exclude: string[];
  watch: boolean;
  created_at: string;
  last_scan: string | null;
  scan_task_id: string | null;
  language: Lang | null;
  /**
   * What the last finished scan found: counts that add up (`found` = added + changed + moved + unchanged +
   * skipped + the failed files) and the failed files with their reasons; null before the first scan ends.
   */
  last_scan_result: Omit<ScanResult, 'folder_id'> | null;
}

/** What POST /collections/{id}/folders takes (validated by the HTTP layer). */
export interface FolderInput {
  path: string;
  recursive: boolean;
  exclude: string[];
  watch: boolean;
  /** The folder's index_language; null lets each file's media decide. */
  language: Lang | null;
}

/** Told when a folder appears or goes, so file watching follows (see watch.ts). */
export interface FolderWatchHooks {
  added(folder: FolderRow): void;
  removed(folderPk: number): void;
}

/** A stored scan result without the folder id the folder object already has. */
function lastResult(json: string): Omit<ScanResult, 'folder_id'> {
  const { folder_id: _id, ...rest } = JSON.parse(json) as ScanResult;
  return rest;
}

/**
 * Folders bound to a collection: who may add, read, scan and remove them (the collection's rules), and
 * the scan tasks. Several scan requests for one folder while a scan waits in the queue share that task.
 * @example
 * const f = await folders.create(caller, 'archive', { path: '/srv/media/phone', recursive: true, exclude: [], watch: false });
 * folders.scan(caller, 'archive', f.folder_id); // { task_id }
 */
export class FolderService {
  private hooks: FolderWatchHooks | null = null;

  constructor(
    private readonly store: Repos<'collections' | 'folders' | 'items' | 'tasks'>,
    private readonly collections: CollectionService,
    private readonly items: ItemService,
    private readonly engine: TaskEngine,
    private readonly mediaRoots: readonly string[],
    private readonly files: FileAccess,
  ) {}

  watchWith(hooks: FolderWatchHooks): void {
    this.hooks = hooks;
  }

  async create(caller: Caller, collectionId: string, input: FolderInput): Promise<FolderView> {
    const collection = this.collections.writable(caller, collectionId);
    let path: string;
    try {
      path = await resolveDirInsideRoots(this.files, input.path, this.mediaRoots);
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      // Admins set the roots and may see them; a user learns only that the path is outside.
      const reason = e.text?.key === 'folder_outside_roots' && caller.role === 'admin'
        ? msg('folder_outside_roots_allowed', { path: input.path, roots: this.mediaRoots.join(', ') })
        : (e.text ?? e.message);
      throw fieldProblem('invalid', 'path', reason);
    }
    if (this.store.folders.byPath(collection.pk, path)) {
      throw new Problem('conflict', msg('folder_exists', { path, collection: collectionId }));
    }
    // Nested folders in one collection would make two items of every file they share.
    const overlap = this.store.folders.listForCollection(collection.pk).find((f) => inside(f.path, path) || inside(path, f.path));
    if (overlap) throw new Problem('conflict', msg('folder_overlaps', { path, other_id: overlap.folder_id, other_path: overlap.path, collection: collectionId }));
    const row = this.store.folders.insert({
      folder_id: randomUUID(),
      collection_pk: collection.pk,
      owner: collection.owner,
      path,
      recursive: input.recursive ? 1 : 0,
      exclude: JSON.stringify(input.exclude),
      watch: input.watch ? 1 : 0,
      created_at: nowIso(),
      last_scan: null,
      scan_task_id: null,
      language: input.language,
    });
    this.requestScan(row, caller.id);
    if (row.watch) this.hooks?.added(row);
    return this.view(this.store.folders.get(row.folder_id)!, collectionId);
  }

  list(caller: Caller, collectionId: string): FolderView[] {
    const collection = this.collections.readable(caller, collectionId);
    return this.store.folders.listForCollection(collection.pk).map((r) => this.view(r, collectionId));
  }

  get(caller: Caller, collectionId: string, folderId: string): FolderView {
    const collection = this.collections.readable(caller, collectionId);
    return this.view(this.row(collection.pk, folderId), collectionId);
  }

  /** Removes the folder (a running scan is stopped first); with `removeItems` its items leave the collection. */
  async delete(caller: Caller, collectionId: string, folderId: string, removeItems: boolean): Promise<FolderView> {
    const collection = this.collections.writable(caller, collectionId);
    const row = this.row(collection.pk, folderId);
    const view = this.view(row, collectionId);
    this.hooks?.removed(row.pk);
    if (row.scan_task_id && this.engine.isRunning(row.scan_task_id) && !(await this.engine.cancel(row.scan_task_id))) {
      throw new Problem('conflict', msg('scan_still_stopping', { id: folderId }));
    }
    // A scan still waiting in the queue would only fail on a folder that is gone.
    if (row.scan_task_id && this.store.tasks.get(row.scan_task_id)?.status === 'queued') this.store.tasks.delete(row.scan_task_id);
    if (removeItems) for (const item of this.store.items.listForFolder(row.pk)) this.items.remove(collection.pk, item.media_id);
    else this.store.items.detachFolder(row.pk);
    this.store.folders.delete(row.pk);
    return view;
  }

  scan(caller: Caller, collectionId: string, folderId: string): { task_id: string } {
    const collection = this.collections.writable(caller, collectionId);
    return { task_id: this.requestScan(this.row(collection.pk, folderId), caller.id) };
  }

  /**
   * Queues a scan of the folder. One scan per folder at a time: while one is queued it is the answer, and
   * while one runs the folder is marked for one rescan when it ends (however many events come meanwhile).
   */
  requestScan(folder: FolderRow, owner: string): string {
    const current = folder.scan_task_id ? this.store.tasks.get(folder.scan_task_id) : undefined;
    if (current?.status === 'queued') return current.id;
    if (current?.status === 'running') {
      this.store.folders.requestRescan(folder.pk);
      return current.id;
    }
    return this.queueScan(folder, owner);
  }

  private queueScan(folder: FolderRow, owner: string): string {
    const collectionId = this.store.collections.findLiveByPk(folder.collection_pk)?.collection_id ?? null;
    const task = this.engine.create(owner, 'folder_scan', { folder_id: folder.folder_id, collection: collectionId, path: folder.path }, folder.collection_pk);
    this.store.folders.setScanTask(folder.pk, task.id);
    return task.id;
  }

  /**
   * When a scan of the folder is ending (its handler returns): the one rescan asked for while it ran, if any.
   * @example
   * folders.scanEnding(folder.pk); // queues a rescan when events came during the scan
   */
  scanEnding(folderPk: number): void {
    const folder = this.store.folders.byPk(folderPk);
    if (folder?.rescan_requested && this.store.collections.findLiveByPk(folder.collection_pk)) this.queueScan(folder, folder.owner);
  }

  private row(collectionPk: number, folderId: string): FolderRow {
    const row = this.store.folders.get(folderId);
    if (!row || row.collection_pk !== collectionPk) throw notFound('folder', folderId);
    return row;
  }

  private view(row: FolderRow, collectionId: string): FolderView {
    return {
      folder_id: row.folder_id,
      collection_id: collectionId,
      path: row.path,
      recursive: row.recursive === 1,
      exclude: JSON.parse(row.exclude) as string[],
      watch: row.watch === 1,
      created_at: row.created_at,
      last_scan: row.last_scan,
      scan_task_id: row.scan_task_id,
      language: row.language ?? null,
      last_scan_result: row.last_result ? lastResult(row.last_result) : null,
    };
  }
}
