import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { UpgradeManifest } from '../../scripts/make-upgrade-fixture.js';

/** Where the data dirs of earlier releases are kept, one folder per release commit. */
const UPGRADE_FIXTURES = join(process.cwd(), 'test', 'fixtures', 'upgrade');

/** A working copy of one fixture: its data dir, its media folder and what it holds. */
export interface UpgradeCopy {
  root: string;
  dataDir: string;
  media: string;
  manifest: UpgradeManifest;
}

/**
 * The releases with a fixture (every one is tested, so a fixture added at a release is checked from then on).
 * @example
 * upgradeFixtures(); // ['5ba0ef8']
 */
export function upgradeFixtures(): string[] {
  return readdirSync(UPGRADE_FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/**
 * Copies a fixture into a temp folder, as a user would find their data dir after updating vidx in place.
 * The one absolute path the database holds, the bound folder's, named the making machine's temp folder: it is
 * rebound to the copy's media folder with plain SQL, as a user who moved their media would (the release's own
 * rows and schema are otherwise untouched; links from item folders to media are relative in the fixture).
 * @example
 * const copy = copyUpgradeFixture('5ba0ef8');
 * const s = await startTestServer({ dataDir: copy.dataDir, env: { VIDX_MEDIA_ROOTS: copy.media } });
 */
export function copyUpgradeFixture(release: string): UpgradeCopy {
  const from = join(UPGRADE_FIXTURES, release);
  const manifest = JSON.parse(readFileSync(join(from, 'manifest.json'), 'utf8')) as UpgradeManifest;
  const root = realpathSync(mkdtempSync(join(tmpdir(), `vidx-upgrade-${release}-`)));
  cpSync(from, root, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  const dataDir = join(root, 'data');
  // A checkout leaves folders 0755; vidx wants its data dir private and says so otherwise.
  chmodSync(dataDir, 0o700);
  const media = join(root, 'media');
  const db = new Database(join(dataDir, 'vidx.db'));
  try {
    db.prepare('UPDATE folders SET path = ? WHERE path = ?').run(join(root, manifest.folder.media_dir), manifest.folder.path);
  } finally {
    db.close();
  }
  return { root, dataDir, media, manifest };
}
