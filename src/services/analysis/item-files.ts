/**
 * An item's files (thumbnails, face crops, the kept upload or the link to path-indexed media) live in a
 * version folder of their own, `collections/<pk>/<media_id>/v-<id>/`, so that (re-)indexing is atomic:
 * the new version is written beside the old one, the database rows that name it commit in one transaction,
 * and only then are other versions removed. A crash before the commit leaves the old version in use and the
 * new one unnamed; after it, the old one unnamed. Unnamed versions are removed at the next start.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, symlinkSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import type { Db } from '../../store/connection.js';
import { stagedItem } from '../../store/staging.js';
import { uploadPath, type IndexTaskData } from '../submissions.js';
import { itemDir } from '../../store/paths.js';
import type { FaceTrack } from '../../analysis/faces.js';
import type { EpisodeAnalysis } from '../../analysis/types.js';
import { mediaExtension } from '../../media/media-signature.js';

/** A version folder of an item, new and not yet named by the database. */
export interface StagedFiles {
  /** Absolute path of the version folder. */
  dir: string;
  /** The episodes with their thumbnails renamed into the version folder (paths relative to the data dir). */
  episodes: EpisodeAnalysis[];
  /** Each face track's crop in the version folder, or null. */
  faceThumbs: Array<string | null>;
  /** The kept media (relative to the data dir), or null for URL sources. */
  storedFile: string | null;
}

/** What staging needs to know about the item and its source. */
export interface StageInput {
  dataDir: string;
  uploadsDir: string;
  collectionPk: number;
  data: IndexTaskData;
  episodes: EpisodeAnalysis[];
  faces: FaceTrack[] | null;
  /** Whether face crops are kept (the collection's faces setting still on). */
  keepFaces: boolean;
  /** The local file the media was read from (a path source), or null. */
  localPath: string | null;
}

const VERSION = /^v-[0-9a-f]{12}$/;

/**
 * Writes a new version folder for the item: thumbnails and face crops copied in (their temporary files
 * removed), the upload hard-linked in (the upload itself stays until the commit, so a crash before it
 * leaves the task retryable), a path source linked. Nothing in the database names it yet. The copies run
 * off the request thread (an item may have thousands of thumbnails).
 * @example
 * const staged = await stageItemFiles({ dataDir, uploadsDir, collectionPk: 3, data, episodes, faces, keepFaces, localPath });
 */
export async function stageItemFiles(input: StageInput): Promise<StagedFiles> {
  const { dataDir } = input;
  const dir = join(itemDir(dataDir, input.collectionPk, input.data.video.media_id), `v-${randomBytes(6).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  try {
    // A picture that shows in two episodes is one file, copied once under its own name (pic-<n>.jpg).
    const copied = new Map<string, string>();
    const copyIn = async (from: string, name: string) => {
      let to = copied.get(from);
      if (!to) {
        await copyFile(join(dataDir, from), join(dir, name));
        to = relative(dataDir, join(dir, name));
        copied.set(from, to);
      }
      return to;
    };
    const episodes: EpisodeAnalysis[] = [];
    for (const e of input.episodes) {
      let own: EpisodeAnalysis = e;
      if (e.pictures) {
        const pictures = [];
        for (const p of e.pictures) pictures.push({ ...p, thumbnail: p.thumbnail && (await copyIn(p.thumbnail, basename(p.thumbnail))) });
        own = { ...own, pictures };
      }
      episodes.push(e.thumbnail ? { ...own, thumbnail: await copyIn(e.thumbnail, `ep-${e.index}.jpg`) } : own);
    }
    const faceThumbs: Array<string | null> = [];
    for (const [i, f] of (input.faces ?? []).entries()) {
      if (!f.thumbnail) {
        faceThumbs.push(null);
        continue;
      }
      const from = join(dataDir, f.thumbnail);
      if (input.keepFaces) await copyFile(from, join(dir, `face-${i}.jpg`));
      await rm(from, { force: true });
      faceThumbs.push(relative(dataDir, join(dir, `face-${i}.jpg`)));
    }
    const kept = keepMedia(dir, input.data, input.localPath, input.uploadsDir);
    return { dir, episodes, faceThumbs, storedFile: kept ? relative(dataDir, join(dir, kept)) : null };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The extension an upload's content calls for (media/media-signature.ts), `.bin` for content it does not know. */
function contentExtension(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const read = readSync(fd, head, 0, head.length, 0);
    return mediaExtension(head.subarray(0, read)) ?? '.bin';
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether an item's kept media (relative to the data dir) is an upload's only stored copy: a file of its own
 * (hard-linked in from the upload), where a path source's is a symbolic link to the file that stays on disk.
 * @example
 * isKeptUpload(dataDir, 'collections/3/beach/v-1a2b3c4d5e6f/media.mp4'); // true
 */
export function isKeptUpload(dataDir: string, storedFile: string | null): boolean {
  if (!storedFile) return false;
  try {
    return lstatSync(join(dataDir, storedFile)).isFile();
  } catch {
    return false;
  }
}

/**
 * Links the item's media into the version folder: an upload by a hard link, a local path by a symbolic link.
 * An upload is named by what its content is (`media.mp4`), never by the caller's name for it: `/files` serves
 * a file by its extension, and `clip.html` holding a video must not be served as a page.
 */
function keepMedia(dir: string, data: IndexTaskData, localPath: string | null, uploadsFolder: string): string | null {
  const upload = data.upload ? uploadPath(uploadsFolder, data.upload) : null;
  if (upload && existsSync(upload)) {
    const name = `media${contentExtension(upload)}`;
    linkSync(upload, join(dir, name));
    return name;
  }
  if (localPath) {
    const name = `media${extname(localPath).toLowerCase() || '.bin'}`;
    symlinkSync(localPath, join(dir, name));
    return name;
  }
  return null;
}

/**
 * After the commit: removes every other version of the item (and files of the layout before versions), off
 * the request thread.
 * @example
 * await dropOtherVersions(staged.dir);
 */
export async function dropOtherVersions(versionDir: string): Promise<void> {
  const home = join(versionDir, '..');
  const keep = relative(home, versionDir);
  for (const name of readdirSync(home)) if (name !== keep) await rm(join(home, name), { recursive: true, force: true });
}

/**
 * At start: removes the version folders no item names (left by a crash before or after a commit), in every
 * collection folder. An item's version is the folder its thumbnail, kept media or face crops are in.
 * @example
 * sweepItemFolders(store.db, dataDir); // 2 (folders removed)
 */
export function sweepItemFolders(db: Db, dataDir: string): number {
  const named = new Set<string>();
  const rows = db
    .prepare(
      // A staged item is none yet (its write was cut short) or none any more (replaced): its files go.
      `SELECT e.thumbnail AS path FROM episodes e WHERE e.thumbnail IS NOT NULL AND NOT ${stagedItem('e.item_pk')}
       UNION ALL SELECT a.stored_file FROM item_analysis a WHERE a.stored_file IS NOT NULL AND NOT ${stagedItem('a.item_pk')}
       UNION ALL SELECT f.thumbnail FROM face_tracks f WHERE f.thumbnail IS NOT NULL`,
    )
    .all() as { path: string }[];
  for (const { path } of rows) {
    const parts = path.split('/');
    // collections/<pk>/<media_id>/v-<id>/<file>
    if (parts.length === 5 && VERSION.test(parts[3]!)) named.add(parts.slice(0, 4).join('/'));
  }
  let removed = 0;
  const root = join(dataDir, 'collections');
  for (const pk of existsSync(root) ? readdirSync(root) : []) {
    for (const media of readdirSync(join(root, pk), { withFileTypes: true })) {
      if (!media.isDirectory()) continue;
      const home = join(root, pk, media.name);
      for (const version of readdirSync(home)) {
        if (!VERSION.test(version) || named.has(`collections/${pk}/${media.name}/${version}`)) continue;
        rmSync(join(home, version), { recursive: true, force: true });
        removed++;
      }
    }
  }
  return removed;
}
