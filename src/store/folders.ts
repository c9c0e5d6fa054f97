import type { Db } from './connection.js';
import { prepared } from './statements.js';
import type { Lang } from '../messages/index.js';

/** A folders row as stored (`exclude` is a JSON array of globs). */
export interface FolderRow {
  pk: number;
  folder_id: string;
  collection_pk: number;
  owner: string;
  /** The real path of the folder. */
  path: string;
  recursive: number;
  exclude: string;
  watch: number;
  created_at: string;
  last_scan: string | null;
  scan_task_id: string | null;
  scan_seq: number;
  /** The last finished scan's result (JSON: counts, skipped and failed files), null before the first. */
  last_result?: string | null;
  /** 1 when a scan was asked for while one was queued or running: one more follows when it ends. */
  rescan_requested?: number;
  /** The folder's index_language, or null: each file's media decides. */
  language?: Lang | null;
}

/** What a scan did with a file: pending (indexing started), indexed, ignored (not media) or failed. */
export type FolderFileState = 'pending' | 'indexed' | 'ignored' | 'failed';

/** A folder_files row: one file a scan found, by its path relative to the folder. */
export interface FolderFileRow {
  pk: number;
  folder_pk: number;
  rel_path: string;
  size: number;
  mtime_ms: number;
  /** Content-sample fingerprint (analysis/fingerprint.ts); null until read. */
  fingerprint: string | null;
  /** SHA-256 of the whole file when it was last read (null for rows from before it was kept). */
  content_hash?: string | null;
  media_id: string | null;
  state: FolderFileState;
  reason: string | null;
  /** The reason as a code (a task failure code: not_media, truncated, …), when it has one. */
  reason_code?: string | null;
  /** Number of the last scan that found the file. */
  seen: number;
}

/**
 * The folders and folder_files tables.
 * @example
 * const repo = new FolderRepository(db);
 * repo.fileAt(folder.pk, 'trips/beach.mp4');
 */
export class FolderRepository {
  constructor(private readonly db: Db) {}

  insert(row: Omit<FolderRow, 'pk' | 'scan_seq'>): FolderRow {
    const info = prepared(
      this.db,
      `INSERT INTO folders (folder_id, collection_pk, owner, path, recursive, exclude, watch, created_at, last_scan, scan_task_id, language)
       VALUES (@folder_id, @collection_pk, @owner, @path, @recursive, @exclude, @watch, @created_at, @last_scan, @scan_task_id, @language)`,
    ).run({ language: null, ...row });
    return { language: null, ...row, pk: Number(info.lastInsertRowid), scan_seq: 0, rescan_requested: 0 };
  }

  get(folderId: string): FolderRow | undefined {
    return prepared(this.db, 'SELECT * FROM folders WHERE folder_id = ?').get(folderId) as FolderRow | undefined;
  }

  byPk(pk: number): FolderRow | undefined {
    return prepared(this.db, 'SELECT * FROM folders WHERE pk = ?').get(pk) as FolderRow | undefined;
  }

  byPath(collectionPk: number, path: string): FolderRow | undefined {
    return prepared(this.db, 'SELECT * FROM folders WHERE collection_pk = ? AND path = ?').get(collectionPk, path) as FolderRow | undefined;
  }

  listForCollection(collectionPk: number): FolderRow[] {
    return prepared(this.db, 'SELECT * FROM folders WHERE collection_pk = ? ORDER BY created_at, pk').all(collectionPk) as FolderRow[];
  }

  listWatched(): FolderRow[] {
    return prepared(this.db, 'SELECT * FROM folders WHERE watch = 1 ORDER BY pk').all() as FolderRow[];
  }

  setScanTask(pk: number, taskId: string): void {
    prepared(this.db, 'UPDATE folders SET scan_task_id = ?, rescan_requested = 0 WHERE pk = ?').run(taskId, pk);
  }

  /** Asks for one more scan after the one now queued or running. */
  requestRescan(pk: number): void {
    prepared(this.db, 'UPDATE folders SET rescan_requested = 1 WHERE pk = ?').run(pk);
  }

  /** Starts a scan: its number marks every file it finds. */
  nextScanSeq(pk: number): number {
    return (prepared(this.db, 'UPDATE folders SET scan_seq = scan_seq + 1 WHERE pk = ? RETURNING scan_seq').get(pk) as { scan_seq: number }).scan_seq;
  }

  /** Records a finished scan: when, and what it found (JSON). */
  finishScan(pk: number, at: string, result: string): void {
    prepared(this.db, 'UPDATE folders SET last_scan = ?, last_result = ? WHERE pk = ?').run(at, result, pk);
  }

  delete(pk: number): void {
    prepared(this.db, 'DELETE FROM folders WHERE pk = ?').run(pk);
  }

  fileAt(folderPk: number, relPath: string): FolderFileRow | undefined {
    return prepared(this.db, 'SELECT * FROM folder_files WHERE folder_pk = ? AND rel_path = ?').get(folderPk, relPath) as FolderFileRow | undefined;
  }

  /**
   * Indexed files of the folder with this content that the current scan `seen` has not found (yet): the
   * candidates for a move. Found copies are left out, so many copies of one content cost nothing here.
   */
  moveCandidates(folderPk: number, fingerprint: string, seen: number): FolderFileRow[] {
    return prepared(this.db, "SELECT * FROM folder_files WHERE folder_pk = ? AND fingerprint = ? AND state = 'indexed' AND seen < ? LIMIT 50").all(
      folderPk,
      fingerprint,
      seen,
    ) as FolderFileRow[];
  }

  /** Whether some file of the folder with this content is indexed (so the content is known media). */
  hasIndexedContent(folderPk: number, fingerprint: string): boolean {
    return prepared(this.db, "SELECT 1 FROM folder_files WHERE folder_pk = ? AND fingerprint = ? AND state = 'indexed' LIMIT 1").get(folderPk, fingerprint) !== undefined;
  }

  /** Inserts or replaces the row of a path. */
  putFile(row: Omit<FolderFileRow, 'pk'>): void {
    prepared(
      this.db,
      `INSERT INTO folder_files (folder_pk, rel_path, size, mtime_ms, fingerprint, content_hash, media_id, state, reason, reason_code, seen)
       VALUES (@folder_pk, @rel_path, @size, @mtime_ms, @fingerprint, @content_hash, @media_id, @state, @reason, @reason_code, @seen)
       ON CONFLICT (folder_pk, rel_path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, fingerprint = excluded.fingerprint,
         content_hash = excluded.content_hash, media_id = excluded.media_id, state = excluded.state, reason = excluded.reason,
         reason_code = excluded.reason_code, seen = excluded.seen`,
    ).run({ reason_code: null, content_hash: null, ...row });
  }

  /** A file moved inside the folder: its row follows it (the item and its media_id stay). */
  moveFile(pk: number, relPath: string, size: number, mtimeMs: number, seen: number): void {
    prepared(this.db, 'DELETE FROM folder_files WHERE folder_pk = (SELECT folder_pk FROM folder_files WHERE pk = ?) AND rel_path = ? AND pk != ?').run(pk, relPath, pk);
    prepared(this.db, 'UPDATE folder_files SET rel_path = ?, size = ?, mtime_ms = ?, seen = ? WHERE pk = ?').run(relPath, size, mtimeMs, seen, pk);
  }

  /** Marks files as found by scan `seen` (one statement per file; the caller batches them in a transaction). */
  markSeen(pks: readonly number[], seen: number): void {
    const stmt = prepared(this.db, 'UPDATE folder_files SET seen = ? WHERE pk = ?');
    for (const pk of pks) stmt.run(seen, pk);
  }

  /** Rows the scan `seen` did not find, a page at a time (deleted files). */
  unseen(folderPk: number, seen: number, limit: number): FolderFileRow[] {
    return prepared(this.db, 'SELECT * FROM folder_files WHERE folder_pk = ? AND seen < ? ORDER BY pk LIMIT ?').all(folderPk, seen, limit) as FolderFileRow[];
  }

  deleteFile(pk: number): void {
    prepared(this.db, 'DELETE FROM folder_files WHERE pk = ?').run(pk);
  }

  countFiles(folderPk: number): number {
    return (prepared(this.db, 'SELECT count(*) AS n FROM folder_files WHERE folder_pk = ?').get(folderPk) as { n: number }).n;
  }
}
