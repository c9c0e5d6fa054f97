/**
 * Finding an installed model for inference, with a clear error and pull hint when it is not
 * there, and a per-process cache so each model is loaded once and shared.
 */
import { defaultModel, getModel, loadManifest, type Capability, type Manifest, type ModelEntry } from './manifest.js';
import { modelDir, modelStatus, type InstallState } from './status.js';

/** Thrown when an inference module needs a model that is not (fully) in the models dir. */
export class ModelNotInstalledError extends Error {
  constructor(
    readonly modelId: string,
    readonly state: InstallState,
    readonly hint: string,
  ) {
    super(`model ${modelId} is ${state === 'partial' ? 'partially downloaded' : 'not installed'}: run \`${hint}\``);
    this.name = 'ModelNotInstalledError';
  }
}

/**
 * The command that installs a model.
 * @example
 * pullHint('whisper-base'); // 'vidx models pull whisper-base'
 */
export function pullHint(modelId: string): string {
  return `vidx models pull ${modelId}`;
}

/** Which model to use: an explicit id, else the manifest's default for the capability. */
export interface ModelChoice {
  modelsDir: string;
  manifest?: Manifest;
  modelId?: string;
}

/**
 * The manifest entry for a capability (explicit id or default), without checking the disk.
 * @example
 * chooseModel({ modelsDir }, 'asr').id; // 'whisper-base'
 */
export function chooseModel(choice: ModelChoice, capability: Capability): ModelEntry {
  const manifest = choice.manifest ?? loadManifest();
  const entry = choice.modelId ? getModel(manifest, choice.modelId) : defaultModel(manifest, capability);
  if (!entry) throw new Error(`the manifest names no default ${capability} model`);
  if (entry.capability !== capability) throw new Error(`model ${entry.id} is a ${entry.capability} model, not ${capability}`);
  return entry;
}

/**
 * The chosen model and its folder, or ModelNotInstalledError.
 * @example
 * const { entry, dir } = requireInstalledModel({ modelsDir }, 'text_embedding');
 */
export function requireInstalledModel(choice: ModelChoice, capability: Capability): { entry: ModelEntry; dir: string } {
  const entry = chooseModel(choice, capability);
  const status = modelStatus(entry, choice.modelsDir);
  if (status.state !== 'installed') throw new ModelNotInstalledError(entry.id, status.state, pullHint(entry.id));
  return { entry, dir: modelDir(choice.modelsDir, entry) };
}

const shared = new Map<string, Promise<unknown>>();

/**
 * Loads something once per key and shares it; a failed load is forgotten so it can be retried
 * (for example after `vidx models pull`).
 * @example
 * const asr = await sharedModel(`asr:${dir}`, () => loadWhisper(dir));
 */
export function sharedModel<T>(key: string, load: () => Promise<T>): Promise<T> {
  let p = shared.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    shared.set(key, p);
    p.catch(() => shared.delete(key));
  }
  return p;
}

/**
 * Drops a shared model (or all) from the cache; the caller disposes what it held.
 * @example
 * forgetSharedModels();
 */
export function forgetSharedModels(key?: string): void {
  if (key) shared.delete(key);
  else shared.clear();
}
