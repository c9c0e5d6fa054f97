import type { Db } from '../db.js';
import { m001Foundation } from './001-foundation.js';
import { m002Search } from './002-search.js';
import { m003Folders } from './003-folders.js';
import { m004CollectionText } from './004-collection-text.js';
import { m005VectorShards } from './005-vector-shards.js';
import { m006CollectionDeleting } from './006-collection-deleting.js';
import { m010Faces } from './010-faces.js';
import { m011TaskCollection } from './011-task-collection.js';
import { m012ItemDetails } from './012-item-details.js';
import { m013TaskKinds } from './013-task-kinds.js';
import { m014Shares } from './014-shares.js';
import { m015TaskSteps } from './015-task-steps.js';
import { m016FolderScans } from './016-folder-scans.js';
import { m017FramePrints } from './017-frame-prints.js';
import { m027Workers } from './027-workers.js';
import { m030StemmedText } from './030-stemmed-text.js';
import { m031SubtitleTracks } from './031-subtitle-tracks.js';
import { m032WorkerTrust } from './032-worker-trust.js';
import { m033Places } from './033-places.js';
import { m034TaskErrorParams } from './034-task-error-params.js';
import { m035OwnWords } from './035-own-words.js';
import { m036CopyEvidence } from './036-copy-evidence.js';
import { m037HyphenWords } from './037-hyphen-words.js';
import { m038EpisodePictures } from './038-episode-pictures.js';
import { m039StagedItems } from './039-staged-items.js';
import { m040Speakers } from './040-speakers.js';
import { m041Voices } from './041-voices.js';
import { m042SpeakerModels } from './042-speaker-models.js';
import { m043Events } from './043-events.js';
import { m044PlacesIndex } from './044-places-index.js';

/** One schema step; each runs in its own transaction. */
export type Migration = (db: Db) => void;

/**
 * Every migration with its number (the file's prefix). Numbers may leave gaps: branches developed side by
 * side take different numbers, and a migration merged later with a lower number still runs on a database
 * that already has a higher one, because the applied numbers are recorded one by one.
 */
export const migrations: ReadonlyArray<{ id: number; up: Migration }> = [
  { id: 1, up: m001Foundation },
  { id: 2, up: m002Search },
  { id: 3, up: m003Folders },
  { id: 4, up: m004CollectionText },
  { id: 5, up: m005VectorShards },
  { id: 6, up: m006CollectionDeleting },
  { id: 10, up: m010Faces },
  { id: 11, up: m011TaskCollection },
  { id: 12, up: m012ItemDetails },
  { id: 13, up: m013TaskKinds },
  { id: 14, up: m014Shares },
  { id: 15, up: m015TaskSteps },
  { id: 16, up: m016FolderScans },
  { id: 17, up: m017FramePrints },
  { id: 27, up: m027Workers },
  { id: 30, up: m030StemmedText },
  { id: 31, up: m031SubtitleTracks },
  { id: 32, up: m032WorkerTrust },
  { id: 33, up: m033Places },
  { id: 34, up: m034TaskErrorParams },
  { id: 35, up: m035OwnWords },
  { id: 36, up: m036CopyEvidence },
  { id: 37, up: m037HyphenWords },
  { id: 38, up: m038EpisodePictures },
  { id: 39, up: m039StagedItems },
  { id: 40, up: m040Speakers },
  { id: 41, up: m041Voices },
  { id: 42, up: m042SpeakerModels },
  { id: 43, up: m043Events },
  { id: 44, up: m044PlacesIndex },
];

/** Numbers already applied: recorded in schema_migrations; databases from before it had 1..user_version. */
function applied(db: Db): Set<number> {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const rows = db.prepare('SELECT id FROM schema_migrations').all() as { id: number }[];
  if (rows.length > 0) return new Set(rows.map((r) => r.id));
  const legacy = db.pragma('user_version', { simple: true }) as number;
  return new Set(Array.from({ length: legacy }, (_, i) => i + 1));
}

/**
 * Applies the missing migrations in number order; refuses a database written by a newer vidx.
 * `user_version` holds the highest number applied.
 * @example
 * migrate(db); // every migration in schema_migrations afterwards
 */
export function migrate(db: Db): void {
  const newest = Math.max(...migrations.map((m) => m.id));
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > newest) {
    throw new Error(`database schema version ${current} is newer than this vidx understands (${newest}); upgrade vidx`);
  }
  const done = applied(db);
  const record = db.prepare('INSERT OR IGNORE INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  // Databases from before the table: record what user_version implied, so the set is complete from now on.
  for (const id of done) record.run(id, new Date().toISOString());
  for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
    if (done.has(m.id)) continue;
    db.transaction(() => {
      m.up(db);
      record.run(m.id, new Date().toISOString());
      const top = Math.max(m.id, db.pragma('user_version', { simple: true }) as number);
      db.pragma(`user_version = ${top}`);
    }).immediate();
  }
}
