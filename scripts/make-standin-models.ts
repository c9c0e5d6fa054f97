/**
 * Writes real-shaped stand-ins for the pulled models (whisper-base, whisper-tiny, clip-vit-base-patch32,
 * multilingual-e5-small, SFace) straight into a models dir, in the registry's `<modelsDir>/<repo>/<file>` layout
 * and under the file names models/manifest.json pins, so `vidx` and the benches see them as pulled models.
 * Same shapes, operators, input/output names and dtypes as the hub files; random weights. They exist to
 * measure speed and memory, never to be shipped or committed (~500 MB; `.standins/` is git-ignored).
 *
 *   npx tsx scripts/make-standin-models.ts [modelsDir=.standins/models] [--only whisper,whisper-tiny,clip,e5,sface]
 *   VIDX_MODELS_DIR=.standins/models npx tsx scripts/bench-index.ts --asr
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { writeRepo, type RepoFiles } from './make-fixture-models.js';
import { clipFiles, e5Files } from './make-standin-models.embedders.js';
import { sfaceStandinFiles } from './make-standin-models.sface.js';
import { whisperBaseFiles, whisperTinyFiles } from './make-standin-models.whisper.js';

/** Stand-in builders by short name, with the manifest repo each one fills. */
export const STANDINS: Record<string, { repo: string; files: () => RepoFiles }> = {
  whisper: { repo: 'Xenova/whisper-base', files: whisperBaseFiles },
  'whisper-tiny': { repo: 'Xenova/whisper-tiny', files: whisperTinyFiles },
  clip: { repo: 'Xenova/clip-vit-base-patch32', files: clipFiles },
  e5: { repo: 'Xenova/multilingual-e5-small', files: e5Files },
  sface: { repo: 'opencv/face_recognition_sface', files: sfaceStandinFiles },
};

/**
 * Generates the chosen stand-ins (default: all of them) into `modelsDir`; returns each written file's size.
 * @example
 * await makeStandinModels('.standins/models', ['e5']);
 */
export async function makeStandinModels(modelsDir: string, only: string[] = Object.keys(STANDINS)): Promise<Record<string, number>> {
  const dir = resolve(modelsDir);
  const sizes: Record<string, number> = {};
  for (const name of only) {
    const standin = STANDINS[name];
    if (!standin) throw new Error(`unknown stand-in ${name} (known: ${Object.keys(STANDINS).join(', ')})`);
    for (const f of writeRepo(dir, standin.repo, standin.files())) sizes[`${standin.repo}/${f.path}`] = f.size;
  }
  return sizes;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { only: { type: 'string' } } });
  const out = positionals[0] ?? join(process.cwd(), '.standins', 'models');
  const t0 = performance.now();
  const sizes = await makeStandinModels(out, values.only?.split(','));
  for (const [path, size] of Object.entries(sizes)) {
    if (size > 1e6) process.stdout.write(`${(size / 1e6).toFixed(1).padStart(7)} MB  ${path}\n`);
  }
  process.stdout.write(`wrote ${Object.keys(sizes).length} files to ${resolve(out)} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
