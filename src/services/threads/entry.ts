import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** How to start a thread: a module file, or (from TypeScript sources) code that loads it through tsx. */
export type ThreadSource = { code: string; eval: true } | { url: URL; eval: false };

/**
 * The source of the thread entry `name` (a module beside `from`, the caller's import.meta.url); in the single
 * binary the unpacked bundle `bundled` in `dir` when it carries one; else null (the binary's main bundle has no
 * module files beside it: those calls run inline). From TypeScript sources (tsx, vitest) the thread registers tsx's ESM loader
 * first, since a worker does not inherit the loader of the thread that started it.
 * @example
 * const src = threadSource(import.meta.url, 'thread'); // thread.ts beside this module, or null
 */
export function threadSource(from: string, name: string, bundled?: string, dir?: string): ThreadSource | null {
  // The single binary unpacks a bundle per thread entry it carries into `dir` (config.threadsDir).
  if (bundled && dir && existsSync(join(dir, `${bundled}.cjs`))) return { url: pathToFileURL(join(dir, `${bundled}.cjs`)), eval: false };
  if (typeof from !== 'string' || !from.startsWith('file:')) return null;
  const ts = from.endsWith('.ts');
  const entry = new URL(`./${name}${ts ? '.ts' : '.js'}`, from);
  if (!existsSync(fileURLToPath(entry))) return null;
  if (!ts) return { url: entry, eval: false };
  // createRequire resolves the package's CommonJS build; the ESM build beside it is the one to register.
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  return { code: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`, eval: true };
}

/**
 * Starts a thread from a source, unref'd: the threads never keep the process alive on their own.
 * @example
 * const w = startThread(src, { workerData: settings });
 */
export function startThread(src: ThreadSource, opts: WorkerOptions = {}): Worker {
  const worker = src.eval ? new Worker(src.code, { ...opts, eval: true }) : new Worker(src.url, opts);
  worker.unref();
  return worker;
}
