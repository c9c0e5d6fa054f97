/**
 * Finding an installed model for inference, with a clear error and pull hint when it is not
 * there, and a per-process cache so each model is loaded once and shared.
 */
import { defaultModel, getModel, loadManifest, type Capability, type Manifest, type ModelEntry } from './manifest.js';
import { modelDir, modelStatus, type InstallState } from './status.js';
import type { OnnxProviders } from '../providers.js';

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

/**
 * The model a capability uses: its default when that is installed, else another installed model of the
 * capability (whisper-tiny pulled instead of whisper-base, SFace pulled by id while it is not a default),
 * else the default (or the first model of the capability) to name in the "pull it" hint.
 * @example
 * capabilityModel(manifest, 'face_embedding', modelsDir)?.id; // 'sface-2021dec' once pulled
 */
export function capabilityModel(manifest: Manifest, capability: Capability, modelsDir: string): ModelEntry | undefined {
  const fallback = defaultModel(manifest, capability);
  if (fallback && modelStatus(fallback, modelsDir).state === 'installed') return fallback;
  const candidates = manifest.models.filter((m) => m.capability === capability);
  return candidates.find((m) => modelStatus(m, modelsDir).state === 'installed') ?? fallback ?? candidates[0];
}

/** Which model to use: an explicit id, else {@link capabilityModel}. */
export interface ModelChoice {
  modelsDir: string;
  manifest?: Manifest;
  modelId?: string;
  /** The server's ONNX providers (VIDX_ONNX_PROVIDERS); default: the CPU. */
  providers?: OnnxProviders;
}

/**
 * The manifest entry for a capability (explicit id, else {@link capabilityModel}).
 * @example
 * chooseModel({ modelsDir }, 'asr').id; // 'whisper-base'
 */
export function chooseModel(choice: ModelChoice, capability: Capability): ModelEntry {
  const manifest = choice.manifest ?? loadManifest();
  const entry = choice.modelId ? getModel(manifest, choice.modelId) : capabilityModel(manifest, capability, choice.modelsDir);
  if (!entry) throw new Error(`the manifest names no ${capability} model`);
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

/**
 * Loaded pulled models by a key that names their files (folder or file, dtype, providers when not the CPU):
 * process-wide on purpose, since a session per model file is expensive and holds no state between runs.
 * Nothing in a key or a value depends on which server asked.
 */
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
