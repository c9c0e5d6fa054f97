/**
 * The one place that imports @huggingface/transformers: lazily (it is heavy), and configured
 * to read local folders only, so nothing is fetched at inference time; downloads happen
 * solely through `vidx models pull`.
 */
import type * as Transformers from '@huggingface/transformers';
import { providerOptions, type OnnxProviders } from '../providers.js';
import { CPU_THREADS } from '../session-options.js';

/**
 * The session options of a transformers.js model: vidx's CPU threads (CPU_THREADS) and the server's execution providers
 * (transformers.js keeps `executionProviders` given here over its own choice).
 * @example
 * await pipeline('feature-extraction', dir, { session_options: sessionOptions(choice.providers) });
 */
export function sessionOptions(providers: OnnxProviders = 'cpu'): Record<string, unknown> {
  return { ...CPU_THREADS, ...providerOptions(providers) };
}

/** The module itself, loaded once per thread: its settings above are the same for every server. */
let loaded: Promise<typeof Transformers> | null = null;

/**
 * The transformers.js module with remote loading and its file cache switched off.
 * Models are then loaded by absolute folder path (`<modelsDir>/<repo>`).
 * @example
 * const { pipeline } = await loadTransformers();
 */
export function loadTransformers(): Promise<typeof Transformers> {
  loaded ??= import('@huggingface/transformers').then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.useFSCache = false;
    t.env.useBrowserCache = false;
    // Missing optional files (e.g. processor_config.json) are normal for local folders.
    t.env.logLevel = t.LogLevel?.ERROR ?? t.env.logLevel;
    return t;
  });
  return loaded;
}
