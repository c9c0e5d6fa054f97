/**
 * The model manifest (models/manifest.json): which models vidx knows, where they live on the
 * hub (repo + pinned revision), which files make them up, and which one is the default for
 * each capability.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** What a model is used for inside vidx. */
export const CAPABILITIES = ['asr', 'image_text', 'text_embedding', 'face_embedding', 'speaker_segmentation', 'speaker_embedding', 'answer'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** transformers.js dtypes; the dtype picks the ONNX file suffix (q8 → `_quantized.onnx`). */
export const DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;
export type Dtype = (typeof DTYPES)[number];

const dtypeSchema = z.enum(DTYPES);

const fileSchema = z.object({
  path: z.string().min(1).refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'relative path inside the repo'),
  /** Exact size in bytes; checked after download when set. */
  size: z.number().int().nonnegative().nullable().optional(),
  /** Rounded size from the hub's listing, used only for estimates when `size` is unknown. */
  approxSize: z.number().int().nonnegative().nullable().optional(),
  /** Lower-case hex sha256; checked after download when set. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable().optional(),
});

const modelSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  task: z.string(),
  capability: z.enum(CAPABILITIES),
  /**
   * Which code path loads it: whisper (ASR), clip / siglip (image-text), e5 (text embedding), and plain ONNX
   * for sface (faces), pyannote (speaker segmentation) and wespeaker (speaker embedding); gguf: an instruct
   * model llama.cpp runs (answers).
   */
  family: z.enum(['whisper', 'clip', 'siglip', 'e5', 'sface', 'pyannote', 'wespeaker', 'gguf']),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  revision: z.string().min(1),
  /** False when `revision` is a branch name because no commit hash was known. */
  revisionPinned: z.boolean().optional(),
  default: z.boolean().optional(),
  dtype: z.union([dtypeSchema, z.record(z.string(), dtypeSchema)]),
  license: z.string(),
  /** Embedding size for embedders, null for ASR. */
  dimensions: z.number().int().positive().nullable(),
  languages: z.array(z.string()).optional(),
  /** Face embedders: the cosine to a person's centre at or above which a face is that person (it depends on the model). */
  samePersonCosine: z.number().min(-1).max(1).optional(),
  /** Speaker embedders: the cosine at or above which two stretches of speech are one voice. */
  sameSpeakerCosine: z.number().min(-1).max(1).optional(),
  /** Who made the model and its data, as its licence asks to be credited (shown on the Models page). */
  credit: z.string().optional(),
  files: z.array(fileSchema).min(1),
  notes: z.string().optional(),
});

const manifestSchema = z.object({
  schemaVersion: z.literal(1),
  models: z.array(modelSchema).min(1),
});

export type ManifestFile = z.infer<typeof fileSchema>;
export type ModelEntry = z.infer<typeof modelSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

/** Thrown for an id the manifest does not know. */
export class UnknownModelError extends Error {
  constructor(readonly modelId: string, known: string[]) {
    super(`unknown model "${modelId}" (known: ${known.join(', ')})`);
    this.name = 'UnknownModelError';
  }
}

/**
 * Where the shipped manifest lives: models/manifest.json at the repository root. `VIDX_MODELS_MANIFEST`
 * (config.modelsManifest; the single binary's extracted copy) is passed in place of it.
 * @example
 * loadManifest(config.modelsManifest ?? defaultManifestPath());
 */
export function defaultManifestPath(): string {
  return fileURLToPath(new URL('../../../models/manifest.json', import.meta.url));
}

/**
 * Checks a parsed manifest: schema, unique ids, at most one default per capability.
 * @example
 * const m = parseManifest(JSON.parse(text));
 */
export function parseManifest(data: unknown): Manifest {
  const manifest = manifestSchema.parse(data);
  const ids = new Set<string>();
  const defaults = new Set<Capability>();
  for (const m of manifest.models) {
    if (ids.has(m.id)) throw new Error(`manifest: duplicate model id "${m.id}"`);
    ids.add(m.id);
    if (m.default) {
      if (defaults.has(m.capability)) throw new Error(`manifest: two defaults for ${m.capability}`);
      defaults.add(m.capability);
    }
  }
  return manifest;
}

/**
 * Parsed manifests by file path: a pure memo of a file vidx never rewrites while running, shared by every
 * server of the process on purpose. Callers never change the parsed object.
 */
const cache = new Map<string, Manifest>();

/**
 * Reads and validates a manifest file (cached per path).
 * @example
 * const manifest = loadManifest(); // models/manifest.json
 */
export function loadManifest(path: string = defaultManifestPath()): Manifest {
  let m = cache.get(path);
  if (!m) {
    m = parseManifest(JSON.parse(readFileSync(path, 'utf8')));
    cache.set(path, m);
  }
  return m;
}

/**
 * The default model for a capability, if the manifest names one.
 * @example
 * defaultModel(manifest, 'asr')?.id; // 'whisper-base'
 */
export function defaultModel(manifest: Manifest, capability: Capability): ModelEntry | undefined {
  return manifest.models.find((m) => m.capability === capability && m.default);
}

/**
 * Finds a model by id, or throws UnknownModelError.
 * @example
 * getModel(manifest, 'multilingual-e5-small').repo; // 'Xenova/multilingual-e5-small'
 */
export function getModel(manifest: Manifest, id: string): ModelEntry {
  const m = manifest.models.find((x) => x.id === id);
  if (!m) throw new UnknownModelError(id, manifest.models.map((x) => x.id));
  return m;
}

/**
 * Expands ids, where `default` stands for every capability's default; no duplicates, order kept.
 * An empty list means `default`.
 * @example
 * resolveModelIds(manifest, ['default']); // ['whisper-base', 'clip-vit-base-patch32', ...]
 */
export function resolveModelIds(manifest: Manifest, ids: string[]): ModelEntry[] {
  const wanted = ids.length === 0 ? ['default'] : ids;
  const out: ModelEntry[] = [];
  for (const id of wanted) {
    const entries = id === 'default' ? manifest.models.filter((m) => m.default) : [getModel(manifest, id)];
    for (const e of entries) if (!out.includes(e)) out.push(e);
  }
  return out;
}

/**
 * The size a file is expected to have: exact when known, else the hub's rounded figure.
 * @example
 * expectedSize({ path: 'a', approxSize: 1000 }); // { bytes: 1000, exact: false }
 */
export function expectedSize(f: ManifestFile): { bytes: number | null; exact: boolean } {
  if (f.size != null) return { bytes: f.size, exact: true };
  return { bytes: f.approxSize ?? null, exact: false };
}
