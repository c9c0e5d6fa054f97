import { readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileAccess } from '../media/file-access.js';
import type { CollectionRepository } from '../store/collections.js';
import type { KeyRepository } from '../store/keys.js';
import { Problem } from './errors.js';
import type { ShownPictures } from './shown-pictures.js';
import { msg } from '../messages/index.js';

/**
 * `collections/<pk>/<item folder>/v-<version>/<file>`: the files of an item (services/analysis/item-files.ts);
 * without the version folder as items stored before versions were.
 */
const ITEM_FILE = /^collections\/(\d+)\/([^/]+)\/(?:v-[0-9a-f]{12}\/)?[^/]+$/;
/** An item file in a version folder: collection pk, item folder, version, file name. */
const VERSIONED_FILE = /^collections\/(\d+)\/([^/]+)\/(v-[0-9a-f]{12})\/([^/]+)$/;
const VERSION_FOLDER = /^v-[0-9a-f]{12}$/;

/** A photo whose picture for browsers cannot be made: said as it is (422), not hidden behind a 404. */
const unshowable = (err: unknown): boolean => err instanceof Problem && err.kind === 'invalid';

/** What a link signed for a share carries as its key (see shareLinkKey). */
const SHARE_PREFIX = 'share:';
/**
 * `cache/<analysis>/<name>.jpg`: the thumbnails of an /analyze result, which belong to no collection; a
 * remote worker's lie in a folder of their job's own, `cache/<analysis>/job-<task id>/<name>.jpg`.
 */
const ANALYSIS_THUMBNAIL = /^cache\/[^/]+\/(job-[0-9a-f-]{36}\/)?[^/]+\.jpg$/;
/** `jobs/<job id>/<n>`: the media (0) and subtitle files of an analysis job, for the worker that runs it. */
const JOB_FILE = /^jobs\/([^/]+)\/(\d{1,3})$/;

/**
 * Opens the files a signed link may name: only what vidx keeps for the items of a live collection
 * (thumbnails, face crops, uploads and kept copies, kept links to path-indexed media, a photo's browser JPEG,
 * made from its kept HEIC or TIFF on the first request by ShownPictures) under
 * `<data dir>/collections/`, and the thumbnails of /analyze results in the analysis cache. The database,
 * its WAL, `link.secret`, `admin.key`, the vector indexes, analysis records and the models are never
 * served, whatever a signature says. An item's file is served while its collection lives and its owner's
 * key is not revoked (and, for a link a share link handed out, while that share lives); an analysis thumbnail
 * while the key its link was signed for (`k`) is not revoked; a job's media and subtitle files (`jobs/<job>/<n>`,
 * wherever they lie) to the worker key the link was signed for, while a task waits for the job and that key holds it.
 * The opened file itself is checked (FileAccess.openCheckedFile): vidx's own files under their own names only, a kept
 * link only while it leads into the media roots and outside vidx's folders.
 * @example
 * const fh = await servedFiles.open('collections/3/clip/ep-0.jpg');
 */
export class ServedFiles {
  constructor(
    private readonly dataDir: string,
    /** The server's file-access rule. */
    private readonly files: FileAccess,
    private readonly collections: Pick<CollectionRepository, 'findLiveByPk'>,
    private readonly keys: Pick<KeyRepository, 'get'>,
    /** Whether a share (by id) still lets its link serve files of this item folder. */
    private readonly shareAllows: (shareId: string, collectionPk: number, itemFolder: string) => boolean = () => false,
    /** The file behind a job's link (the job queue's), while a task waits for the job and the link's key holds it; null otherwise. */
    private readonly jobFile: (jobId: string, index: number, keyId: string) => string | null = () => null,
    /** Makes a photo's picture for browsers on its first request (absent: such a picture is only served once it exists). */
    private readonly shown: ShownPictures | null = null,
  ) {}

  /**
   * The open file (the caller closes it), or a 404 that looks the same for every reason; a 422 naming the reason
   * when a photo's picture for browsers cannot be made from its kept media (ShownPictures).
   */
  async open(rel: string, signedFor?: string): Promise<FileHandle> {
    const path = this.pathOf(rel, signedFor);
    if (!path || rel.split('/').some((part) => part === '..' || part === '.' || part === '')) throw new Problem('not_found', msg('file_not_found'));
    try {
      return await this.openOrMake(rel, path);
    } catch (err) {
      if (unshowable(err)) throw err;
      const current = await this.currentVersion(rel);
      if (current) return current;
      // Missing, not a regular file, or a link that now leads elsewhere: all look the same from outside.
      throw new Problem('not_found', msg('file_not_found'));
    }
  }

  /**
   * A link handed out before its item was re-indexed names a version folder that is gone: it leads to the
   * file of the same name in the item's current version (the same episode's thumbnail, the same kept media),
   * so a page open during a re-index keeps its pictures and its player.
   */
  /**
   * Opens a file of a model this server hands its workers (a path the job queue's model pack named), through
   * the server's file-access rule like every other file it serves.
   * @example
   * const fh = await servedFiles.openModelFile(pack.file('ocr/det.onnx')!);
   */
  openModelFile(path: string): Promise<FileHandle> {
    return this.files.openCheckedFile(path);
  }

  private async currentVersion(rel: string): Promise<FileHandle | null> {
    const m = VERSIONED_FILE.exec(rel);
    if (!m) return null;
    const home = join(this.dataDir, 'collections', m[1]!, m[2]!);
    const versions = (await readdir(home).catch(() => [] as string[])).filter((v) => VERSION_FOLDER.test(v) && v !== m[3]);
    if (versions.length !== 1) return null;
    return this.openOrMake(rel, join(home, versions[0]!, m[4]!)).catch((err: unknown) => (unshowable(err) ? Promise.reject(err) : null));
  }

  /** Opens an item's file; a photo's picture for browsers that is not there yet is made first (ShownPictures). */
  private async openOrMake(rel: string, path: string): Promise<FileHandle> {
    try {
      return await this.files.openCheckedFile(path);
    } catch (err) {
      if (!this.shown?.makes(path) || !ITEM_FILE.test(rel) || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await this.shown.make(path);
      return this.files.openCheckedFile(path);
    }
  }

  /** Where the file of a link is, when the link may open it: a job's file while its worker's key lives, else one in the data dir. */
  private pathOf(rel: string, signedFor: string | undefined): string | null {
    const job = JOB_FILE.exec(rel);
    if (job) return signedFor !== undefined && this.keys.get(signedFor)?.role === 'worker' ? this.jobFile(job[1]!, Number(job[2]), signedFor) : null;
    return this.allowed(rel, signedFor) ? join(this.dataDir, rel) : null;
  }

  private allowed(rel: string, signedFor: string | undefined): boolean {
    const item = ITEM_FILE.exec(rel);
    if (item) {
      const collection = this.collections.findLiveByPk(Number(item[1]));
      if (collection === undefined || this.keys.get(collection.owner) === undefined) return false;
      // A link handed out by a share link lives as long as the share does.
      if (signedFor?.startsWith(SHARE_PREFIX)) return this.shareAllows(signedFor.slice(SHARE_PREFIX.length), collection.pk, item[2]);
      return true;
    }
    return ANALYSIS_THUMBNAIL.test(rel) && signedFor !== undefined && this.keys.get(signedFor) !== undefined;
  }
}
