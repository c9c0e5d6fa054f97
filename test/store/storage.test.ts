import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { itemDir, uploadsDir } from '../../src/store/paths.js';
import { StorageRepository } from '../../src/store/storage.js';
import { CollectionPurger } from '../../src/services/collection-purge.js';
import { sweepUploads } from '../../src/services/upload-sweep.js';

/** A storage that only notes what a service asked it to remove, so the test sees the service's side effects. */
class RecordingStorage extends StorageRepository {
  readonly removed: string[] = [];
  override removeCollection(collectionPk: number): void {
    this.removed.push(`collection ${collectionPk}`);
  }
}

describe('the files under the data dir', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vidx-storage-'));
    store = openStore(join(dir, 'vidx.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes an item folder with everything in it, and an absent one quietly', () => {
    const folder = itemDir(dir, 3, 'clip-1');
    mkdirSync(join(folder, 'v1'), { recursive: true });
    writeFileSync(join(folder, 'v1', 'thumb.jpg'), 'x');
    store.storage.removeItem(3, 'clip-1');
    expect(existsSync(folder)).toBe(false);
    expect(() => store.storage.removeItem(3, 'never-there')).not.toThrow();
  });

  it('keeps an upload name inside the uploads folder, whatever a stored value says', () => {
    mkdirSync(uploadsDir(dir), { recursive: true });
    const outside = join(dir, 'precious.upload');
    writeFileSync(outside, 'keep me');
    writeFileSync(join(uploadsDir(dir), 'precious.upload'), 'an upload');
    store.storage.removeUpload('../precious.upload');
    expect(existsSync(outside)).toBe(true);
    expect(existsSync(join(uploadsDir(dir), 'precious.upload'))).toBe(false);
  });

  it('writes a secret only its owner reads, also over a file that was readable before', () => {
    const path = join(dir, 'admin.key');
    writeFileSync(path, 'old', { mode: 0o644 });
    store.storage.writeSecret(path, 'vidx_key\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('sweeps the uploads no task holds and nothing else', () => {
    mkdirSync(uploadsDir(dir), { recursive: true });
    for (const name of ['left.upload', 'notes.txt']) writeFileSync(join(uploadsDir(dir), name), 'x');
    expect(sweepUploads(store)).toBe(1);
    expect(store.storage.uploadNames()).toEqual([]);
    expect(existsSync(join(uploadsDir(dir), 'notes.txt'))).toBe(true);
  });

  it('lets a service be handed a storage of the test, which sees the collection folder go after its rows', async () => {
    const storage = new RecordingStorage(dir);
    const now = new Date(0).toISOString();
    const c = store.collections.insert({ collection_id: 'trips', owner: 'k1', name: 'Trips', description: null, is_public: 0, created_at: now, updated_at: now });
    store.collections.markDeleting(c.pk);
    const purger = new CollectionPurger({ ...store, storage });
    purger.start(c.pk);
    await purger.idle();
    expect(storage.removed).toEqual([`collection ${c.pk}`]);
    expect(store.db.prepare('SELECT count(*) FROM collections WHERE pk = ?').pluck().get(c.pk)).toBe(0);
  });
});
