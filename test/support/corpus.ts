import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../../src/media/run.js';
import { buildCorpus, type CorpusManifest } from '../../scripts/make-test-corpus.js';

export type { CorpusManifest } from '../../scripts/make-test-corpus.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/make-test-corpus.ts', import.meta.url));
const DEFAULT_DIR = resolve(fileURLToPath(new URL('../.tmp/corpus', import.meta.url)));
/** A lock older than this belongs to a crashed build and is taken over. */
const STALE_LOCK_MS = 180_000;

let pending: Promise<CorpusManifest> | undefined;

/** Content version: the generator's source and the ffmpeg build, so either changing rebuilds. */
async function version(): Promise<string> {
  const { stdout } = await runTool('ffmpeg', ['-hide_banner', '-version']);
  const h = createHash('sha256').update(await readFile(SCRIPT)).update(stdout.toString('utf8').split('\n')[0]);
  return h.digest('hex').slice(0, 12);
}

/** manifest.json stores paths relative to its folder; tests get absolute ones. */
function absolutize<T>(value: T, dir: string): T {
  if (Array.isArray(value)) return value.map((v) => absolutize(v, dir)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'path' && typeof v === 'string' ? join(dir, v) : absolutize(v, dir);
    return out as T;
  }
  return value;
}

async function load(dir: string): Promise<CorpusManifest> {
  const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as CorpusManifest;
  return { ...absolutize(m, dir), dir };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function buildOnce(root: string): Promise<CorpusManifest> {
  const v = await version();
  const target = join(root, v);
  await mkdir(root, { recursive: true });
  const lock = join(root, `${v}.lock`);
  for (;;) {
    if (existsSync(join(target, 'manifest.json'))) return load(target);
    try {
      await mkdir(lock);
    } catch {
      // Another test worker is building: wait for it, or take over a lock left by a crash.
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      if (existsSync(join(target, 'manifest.json'))) return load(target);
      const work = `${target}.build-${process.pid}`;
      await rm(work, { recursive: true, force: true });
      await buildCorpus(work, v);
      await rm(target, { recursive: true, force: true });
      await rename(work, target);
      // Older versions are never read again.
      for (const name of await readdir(root)) {
        if (name !== v && !name.startsWith(`${v}.`) && /^[0-9a-f]{12}$/.test(name)) await rm(join(root, name), { recursive: true, force: true });
      }
      return load(target);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The shared test corpus (see scripts/make-test-corpus.ts), built on first use and cached under
 * `test/.tmp/corpus/<version>`; safe to call from parallel test workers (a lock folder serialises the
 * build). Paths in the returned manifest are absolute. Treat the files as read-only: copy them
 * before changing anything.
 * @example
 * const corpus = await ensureCorpus();
 * const probe = await probeMedia(corpus.slides.path);
 * expect(probe.durationSec).toBeCloseTo(corpus.slides.durationSec, 0);
 */
export function ensureCorpus(dir: string = DEFAULT_DIR): Promise<CorpusManifest> {
  if (dir !== DEFAULT_DIR) return buildOnce(resolve(dir));
  pending ??= buildOnce(DEFAULT_DIR).catch((e: unknown) => {
    pending = undefined;
    throw e;
  });
  return pending;
}
