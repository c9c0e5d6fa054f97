/**
 * Multilingual text embeddings (multilingual-e5 family): `query: ` / `passage: ` prefixes,
 * mean pooling over tokens, L2-normalised Float32Array of the manifest's dimensions.
 */
import { requireInstalledModel, sharedModel, type ModelChoice } from '../registry/local.js';
import { loadTransformers, sessionOptions } from '../registry/transformers.js';
import { inBatches, splitRows } from './vectors.js';
import { providerKey } from '../providers.js';

/** e5 models were trained with these prefixes; queries and documents use different ones. */
export type TextKind = 'query' | 'passage';

export interface TextEmbedder {
  modelId: string;
  dims: number;
  /**
   * @example
   * const [v] = await embedder.embed(['wo ist der Bahnhof'], 'query'); // v.length === 384
   */
  embed(texts: string[], kind: TextKind): Promise<Float32Array[]>;
  embedQueries(texts: string[]): Promise<Float32Array[]>;
  embedPassages(texts: string[]): Promise<Float32Array[]>;
}

export interface TextEmbedderOptions extends ModelChoice {
  /** Texts per model call. Default 16. */
  batchSize?: number;
}

// transformers.js types its pipelines loosely; this is the part used here.
type Extractor = (texts: string[], opts: { pooling: 'mean'; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

/**
 * The shared text embedder (default model unless `modelId`), loaded once from local files.
 * Rejects with ModelNotInstalledError (with a pull hint) when the model is not installed.
 * @example
 * const e = await getTextEmbedder({ modelsDir: '/data/models' });
 * const [q] = await e.embedQueries(['Katze auf dem Sofa']);
 */
export async function getTextEmbedder(opts: TextEmbedderOptions): Promise<TextEmbedder> {
  const { entry, dir } = requireInstalledModel(opts, 'text_embedding');
  const dims = entry.dimensions;
  if (!dims) throw new Error(`manifest gives no dimensions for ${entry.id}`);
  const extractor = await sharedModel(`text:${dir}:${JSON.stringify(entry.dtype)}${providerKey(opts.providers ?? 'cpu')}`, async () => {
    const { pipeline } = await loadTransformers();
    const p = await pipeline('feature-extraction', dir, { dtype: entry.dtype as never, session_options: sessionOptions(opts.providers) });
    return p as unknown as Extractor;
  });
  const batchSize = opts.batchSize ?? 16;

  const embed = (texts: string[], kind: TextKind) =>
    inBatches(
      texts.map((t) => `${kind}: ${t}`),
      batchSize,
      (t) => t.length,
      async (batch) => {
        const out = await extractor(batch, { pooling: 'mean', normalize: true });
        const got = out.dims.at(-1);
        if (got !== dims) throw new Error(`${entry.id} returned ${got}-d vectors, manifest says ${dims}`);
        return splitRows(out.data, dims);
      },
    );

  return {
    modelId: entry.id,
    dims,
    embed,
    embedQueries: (texts) => embed(texts, 'query'),
    embedPassages: (texts) => embed(texts, 'passage'),
  };
}
