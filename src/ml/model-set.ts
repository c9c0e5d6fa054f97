/**
 * A model set: which capabilities an installation can run and with which model (see
 * ModelRuntime.capabilities). It is part of every analysis's cache key and names the job queue.
 */

/** Capabilities by name, as ModelRuntime.capabilities() gives them (reasons are ignored). */
export type ModelSet = Record<string, { available: boolean; model?: string }>;

/**
 * The set in a stable order: `[name, available, model or null]`, a model only where it is available.
 * @example
 * modelSetEntries({ vad: { available: true, model: 'Silero' }, asr: { available: false } });
 * // [['asr', false, null], ['vad', true, 'Silero']]
 */
export function modelSetEntries(models: ModelSet): Array<[string, boolean, string | null]> {
  return Object.entries(models)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, m]) => [name, m.available, m.available ? (m.model ?? null) : null]);
}
