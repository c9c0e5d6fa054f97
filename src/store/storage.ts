import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { collectionDir, itemDir, uploadsDir } from './paths.js';

/**
 * The files vidx keeps under its data dir (an item's stored media and pictures, a collection's folder, face
 * crops, uploads waiting for a task), as the rows are kept by the repositories beside it. Services remove
 * and list them only through here, so a reader finds every file a service touches in one room and a test can
 * hand a service one that records what it removed (Immich's StorageRepository).
 * @example
 * const storage = new StorageRepository('/data');
 * storage.removeItem(3, 'clip-1'); // '/data/collections/3/clip-1' and everything in it
 */
export class StorageRepository {
  constructor(readonly dataDir: string) {}

  /** Removes an item's folder (stored media, thumbnails, pictures); nothing happens when it is absent. */
  removeItem(collectionPk: number, mediaId: string): void {
    rmSync(itemDir(this.dataDir, collectionPk, mediaId), { recursive: true, force: true });
  }

  /** Removes a collection's folder with all its items' files. */
  removeCollection(collectionPk: number): void {
    rmSync(collectionDir(this.dataDir, collectionPk), { recursive: true, force: true });
  }

  /**
   * Removes files named relative to the data dir (face crops, as their rows store them); empty names are skipped.
   * @example
   * storage.removeFiles(['collections/3/faces/7.jpg', null]);
   */
  removeFiles(relativePaths: ReadonlyArray<string | null>): void {
    for (const p of relativePaths) if (p) rmSync(join(this.dataDir, p), { force: true });
  }

  /**
   * Removes one upload by its stored name. Only the file name counts, so no stored value reaches outside the
   * uploads folder.
   */
  removeUpload(name: string): void {
    rmSync(join(uploadsDir(this.dataDir), basename(name)), { force: true });
  }

  /** The names of the upload files (`*.upload`) in the uploads folder; none when it does not exist yet. */
  uploadNames(): string[] {
    const folder = uploadsDir(this.dataDir);
    if (!existsSync(folder)) return [];
    return readdirSync(folder).filter((name) => name.endsWith('.upload'));
  }

  /**
   * Writes a secret only its owner may read (mode 0600, also when the file was there before).
   * @example
   * storage.writeSecret('/data/admin-key', `${key}\n`);
   */
  writeSecret(path: string, text: string): void {
    writeFileSync(path, text, { mode: 0o600 });
    chmodSync(path, 0o600);
  }

  /** Whether a file exists (the admin key file a first start wrote). */
  exists(path: string): boolean {
    return existsSync(path);
  }
}
