/**
 * Writes a small data dir made by this checkout's own server, for the upgrade test (test/store/upgrade.test.ts):
 * one of everything a release keeps (keys, collections, items with analyses and vectors, faces and a named
 * person, a folder with its media, finished tasks, a webhook, a share), then a manifest of what it holds.
 *
 * Run it from a checkout of the release the fixture stands for; that checkout's server writes the data:
 *   git worktree add /tmp/old <commit> && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   cp scripts/make-upgrade-fixture.ts /tmp/old/scripts/ && (cd /tmp/old && npx tsx scripts/make-upgrade-fixture.ts)
 *   cp -r /tmp/old/test/fixtures/upgrade/<commit> test/fixtures/upgrade/
 *
 * It only uses what every release since 5ba0ef8 has (startTestServer, indexFixtures, makeVideo, the store's
 * repositories), so the same file runs in old checkouts unchanged.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import * as sqliteVec from 'sqlite-vec';
import { indexFixtures } from '../test/search/fixtures.js';
import { makeVideo } from '../test/support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../test/support/server.js';

/** What the fixture holds, for the test to compare with what today's server shows. */
export interface UpgradeManifest {
  commit: string;
  made_at: string;
  /** Migration numbers the making release had applied. */
  migrations: number[];
  keys: { admin: string; user: string };
  collections: { collection_id: string; owner: 'admin' | 'user'; is_public: boolean; faces: boolean; media_ids: string[] }[];
  /**
   * The folder's path when made (absolute on the making machine: a test rebinds it to its copy of
   * `media_dir`, which is relative to the fixture). Links from item folders to media are relative already.
   */
  folder: { collection_id: string; folder_id: string; path: string; media_dir: string };
  person: { collection_id: string; person_id: string; name: string; media_id: string };
  /** Finished tasks with their results as GET /tasks/{id} showed them. */
  tasks: { task_id: string; kind: string; status: string; owner: 'admin' | 'user'; result: Record<string, unknown> }[];
  webhook: { id: string; url: string; owner: 'admin' };
  share: { share_id: string; token: string; collection_id: string; media_id: string; start_time: number };
  /** Rows per table, read from the database after the making server closed. */
  counts: Record<string, number>;
}

/**
 * Tables whose rows an upgrade must keep; counted into the manifest and compared after the upgrade.
 * @example
 * KEPT_TABLES.map((t) => db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get());
 */
export const KEPT_TABLES = [
  'api_keys', 'collections', 'items', 'item_analysis', 'episodes', 'segments', 'vector_spaces', 'vectors',
  'people', 'face_tracks', 'folders', 'folder_files', 'tasks', 'webhooks', 'shares', 'frame_prints',
] as const;

const sh = (cmd: string, args: string[]): string => execFileSync(cmd, args, { encoding: 'utf8' }).trim();

/** The checkout's media: a video for the folder (with a recording date and GPS) and one indexed by path. */
async function makeMedia(media: string): Promise<void> {
  mkdirSync(join(media, 'folder'), { recursive: true });
  await makeVideo(join(media, 'folder', 'harbour.mp4'), 'HARBOUR', 2, { creation_time: '2021-06-01T10:00:00Z', location: '+48.8577+002.2950/' });
  await makeVideo(join(media, 'party.mp4'), 'BIRTHDAY', 2, {}, 'maroon');
}

/** Sends a request and fails loudly unless the status is the one expected; returns the body. */
async function ok(s: TestServer, method: string, path: string, want: number, opts: Parameters<TestServer['call']>[2] = {}): Promise<Record<string, unknown>> {
  const r = await s.call(method, path, opts);
  if (r.status !== want) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, unknown>;
}

/** The admin's public collection: the three hand-built fixture videos with vectors, faces on, a named person. */
async function fillLibrary(s: TestServer, admin: string): Promise<{ mediaIds: string[]; person: UpgradeManifest['person'] }> {
  await ok(s, 'POST', '/collections', 201, { key: admin, json: { collection_id: 'library', name: 'Library', description: 'kept across upgrades', is_public: true } });
  await ok(s, 'PUT', '/collections/library/faces', 200, { key: admin, json: { enabled: true } });
  const items = indexFixtures(s.vidx, s.dataDir, 'library', { vectors: true });
  const personId = await addFace(s, 'library', 'cup-final');
  await ok(s, 'PUT', `/collections/library/people/${personId}`, 200, { key: admin, json: { name: 'Ada Lovelace' } });
  return {
    mediaIds: Object.values(items).map((i) => i.item.media_id),
    person: { collection_id: 'library', person_id: personId, name: 'Ada Lovelace', media_id: 'cup-final' },
  };
}

/**
 * A person with one face track in the item, stored as the face pipeline stores them (the repository directly:
 * no face model is needed), with a small crop file beside the item's other files.
 */
async function addFace(s: TestServer, collectionId: string, mediaId: string): Promise<string> {
  const collection = s.vidx.store.collections.findById(collectionId);
  const item = collection && s.vidx.store.items.find(collection.pk, mediaId);
  if (!collection || !item?.thumbnail) throw new Error(`no item ${collectionId}/${mediaId}`);
  const crop = join(dirname(item.thumbnail), 'face-0.jpg');
  // A solid grey square is a valid JPEG, which is all the crop link needs to serve.
  await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } }).jpeg().toFile(join(s.dataDir, crop));
  const vector = Buffer.from(new Float32Array(128).map((_, i) => Math.cos(i)).buffer);
  const personId = 'person-0192f3a4-0000-7000-8000-000000000001';
  const faces = s.vidx.store.faces;
  const personPk = faces.insertPerson({ collection_pk: collection.pk, person_id: personId, name: null, vector, weight: 1, created_at: new Date().toISOString() });
  faces.insertTrack({
    collection_pk: collection.pk, item_pk: item.pk, person_pk: personPk, start: 30, end: 75,
    box_x: 0.3, box_y: 0.2, box_w: 0.2, box_h: 0.3, score: 0.9, thumbnail: crop, vector,
  });
  return personId;
}

/** The user's private collection: a folder scanned once, a video indexed by path, and a share of it. */
async function fillHome(s: TestServer, user: string, media: string) {
  await ok(s, 'POST', '/collections', 201, { key: user, json: { collection_id: 'home', name: 'Home videos' } });
  const folder = await ok(s, 'POST', '/collections/home/folders', 201, { key: user, json: { path: join(media, 'folder'), watch: false } });
  const scan = await settledTask(s, String(folder.scan_task_id));
  if (scan.status !== 'completed') throw new Error(`folder scan ${scan.status}: ${scan.error?.message}`);
  const indexed = await ok(s, 'POST', '/index', 202, { key: user, form: { collection: 'home', video: { path: join(media, 'party.mp4'), media_id: 'party', title: 'Birthday party' } } });
  const index = await settledTask(s, String(indexed.task_id));
  if (index.status !== 'completed') throw new Error(`index ${index.status}: ${index.error?.message}`);
  const share = await ok(s, 'POST', '/collections/home/items/party/shares', 201, { key: user, json: { days: 7, start_time: 1 } });
  const items = (await ok(s, 'GET', '/collections/home/items?limit=100', 200, { key: user })).items as { media_id: string }[];
  return {
    mediaIds: items.map((i) => i.media_id).sort(),
    folder: { collection_id: 'home', folder_id: String(folder.folder_id), path: join(media, 'folder'), media_dir: 'media/folder' },
    tasks: [
      { task_id: String(folder.scan_task_id), kind: 'folder_scan', status: 'completed', owner: 'user' as const, result: scan.result as Record<string, unknown> },
      { task_id: String(indexed.task_id), kind: 'index', status: 'completed', owner: 'user' as const, result: index.result as Record<string, unknown> },
    ],
    share: { share_id: String(share.share_id), token: String(share.url).split('/#/s/')[1], collection_id: 'home', media_id: 'party', start_time: 1 },
  };
}

/** Rows per kept table, and the migrations applied, read straight from the closed database. */
function readDatabase(file: string): { counts: Record<string, number>; migrations: number[] } {
  const db = new Database(file, { readonly: true });
  try {
    sqliteVec.load(db);
    const counts = Object.fromEntries(KEPT_TABLES.map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]));
    const migrations = (db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    return { counts, migrations };
  } finally {
    db.close();
  }
}

/** Rewrites the database compactly as one file (no WAL beside it), so the fixture stays small and whole. */
function compact(file: string): void {
  const db = new Database(file);
  try {
    sqliteVec.load(db);
    db.pragma('journal_mode = DELETE');
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/**
 * Points the item folders' links to media files (a file indexed in place is linked, not copied) at the
 * fixture's media/ by a relative path, so the fixture stays whole wherever it is copied.
 */
function relinkMedia(dir: string, oldMedia: string, newMedia: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) relinkMedia(path, oldMedia, newMedia);
    if (!entry.isSymbolicLink()) continue;
    const target = readlinkSync(path);
    if (!target.startsWith(`${oldMedia}/`)) continue;
    unlinkSync(path);
    symlinkSync(relative(dir, join(newMedia, target.slice(oldMedia.length + 1))), path);
  }
}

/**
 * Copies what a release keeps: the database and the item folders. Models and the vector-index folder are
 * caches the server rebuilds (and far bigger than the rest); admin.key is a secret of the making run.
 */
function copyDataDir(from: string, to: string): void {
  const skip = new Set(['models', 'vector-index', 'admin.key', 'tmp', 'cache']);
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (skip.has(name) || name.endsWith('-wal') || name.endsWith('-shm')) continue;
    cpSync(join(from, name), join(to, name), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  }
}

/** Fills a running server with one of everything; returns the manifest without counts and migrations. */
async function fill(s: TestServer, media: string, commit: string): Promise<Omit<UpgradeManifest, 'counts' | 'migrations'>> {
  const admin = String((await ok(s, 'POST', '/keys', 201, { json: { name: 'fixture-admin', role: 'admin' } })).key);
  const user = String((await ok(s, 'POST', '/keys', 201, { json: { name: 'fixture-user', role: 'user' } })).key);
  const library = await fillLibrary(s, admin);
  // A private collection of the admin's, which the user's key must not see.
  await ok(s, 'POST', '/collections', 201, { key: admin, json: { collection_id: 'attic', name: 'Attic' } });
  const home = await fillHome(s, user, media);
  const webhook = await ok(s, 'POST', '/webhooks', 201, { key: admin, json: { url: 'http://127.0.0.1:9/vidx-hook', events: ['task.completed'] } });
  return {
    commit,
    made_at: new Date().toISOString(),
    keys: { admin, user },
    collections: [
      { collection_id: 'library', owner: 'admin', is_public: true, faces: true, media_ids: library.mediaIds.sort() },
      { collection_id: 'attic', owner: 'admin', is_public: false, faces: false, media_ids: [] },
      { collection_id: 'home', owner: 'user', is_public: false, faces: false, media_ids: home.mediaIds },
    ],
    folder: home.folder,
    person: library.person,
    tasks: home.tasks,
    webhook: { id: String(webhook.id), url: String(webhook.url), owner: 'admin' },
    share: home.share,
  };
}

/**
 * Makes the fixture of this checkout under test/fixtures/upgrade/<short commit>/ (or the folder given):
 * data/ (the data dir), media/ (the folder's files) and manifest.json.
 * @example
 * await makeUpgradeFixture(); // from a checkout of the release, with npx tsx
 */
export async function makeUpgradeFixture(out?: string): Promise<string> {
  const commit = sh('git', ['rev-parse', '--short=7', 'HEAD']);
  const target = resolve(out ?? join('test', 'fixtures', 'upgrade', commit));
  const base = mkdtempSync(join(tmpdir(), 'vidx-upgrade-fixture-'));
  const dataDir = join(base, 'data');
  const media = join(base, 'media');
  try {
    // 0700 as vidx wants its data dir (it holds key hashes); it warns otherwise.
    mkdirSync(dataDir, { mode: 0o700 });
    await makeMedia(media);
    const s = await startTestServer({ dataDir, queryEmbedder: null, env: { VIDX_MEDIA_ROOTS: media } });
    let partial: Awaited<ReturnType<typeof fill>>;
    try {
      partial = await fill(s, media, commit);
    } finally {
      await s.close({ keepData: true });
    }
    compact(join(dataDir, 'vidx.db'));
    rmSync(target, { recursive: true, force: true });
    copyDataDir(dataDir, join(target, 'data'));
    cpSync(media, join(target, 'media'), { recursive: true, preserveTimestamps: true });
    relinkMedia(join(target, 'data'), media, join(target, 'media'));
    const manifest: UpgradeManifest = { ...partial, ...readDatabase(join(target, 'data', 'vidx.db')) };
    writeFileSync(join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return target;
  } finally {
    // startTestServer's own media folder (`<data>-media`) sits in base too.
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  makeUpgradeFixture(process.argv[2]).then(
    (dir) => console.log(`upgrade fixture written to ${dir}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
