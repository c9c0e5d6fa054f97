import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { parseManifest } from '../../src/ml/registry/manifest.js';
import { pull } from '../../src/ml/registry/pull.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';

/** A temp folder with a media folder, the fixture models on a loopback hub, and a data dir with the SFace stand-in pulled. */
export interface FacesSetup {
  tmp: string;
  media: string;
  dataDir: string;
  fixtures: FixtureSet;
  hub: FakeHub;
  /** The server env that makes vidx use the fixture manifest and read the media folder. */
  env: Record<string, string>;
}

/**
 * Prepares a faces test: fixture models served from 127.0.0.1, `tiny-sface` pulled into `<tmp>/data/models`.
 * @example
 * const f = await facesSetup('faces-');
 * const s = await startTestServer({ dataDir: f.dataDir, env: f.env });
 */
export async function facesSetup(prefix: string): Promise<FacesSetup> {
  const tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', prefix));
  const media = join(tmp, 'media');
  mkdirSync(media);
  const fixtures = await makeFixtureModels(join(tmp, 'hub'));
  const hub = await startFakeHub({ root: fixtures.hubDir });
  const dataDir = join(tmp, 'data');
  await pull(['tiny-sface'], { hubUrl: hub.url, modelsDir: join(dataDir, 'models'), manifest: parseManifest(fixtures.manifest) });
  return { tmp, media, dataDir, fixtures, hub, env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_MEDIA_ROOTS: media } };
}
