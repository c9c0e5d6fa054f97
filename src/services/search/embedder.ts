/**
 * How a search query becomes vectors. The search service only knows the QueryEmbedder interface, so
 * vidx searches lexically with no models installed, and tests inject small deterministic vectors.
 */
import { getImageTextEmbedder, getTextEmbedder } from '../../ml/embed/index.js';
import { ModelNotInstalledError } from '../../ml/registry/local.js';
import { UnknownModelError, type Manifest } from '../../ml/registry/manifest.js';
import type { VectorKind } from '../../store/search-index.js';
import type { RgbPicture } from '../../media/perceptual.js';

/**
 * The least cosine similarity of two pictures' image–text vectors that counts as a hit (a query picture or a
 * moment against stored frames). A starting value, not measured on real CLIP vectors (none can be fetched here).
 */
export const IMAGE_MIN_SIMILARITY = 0.5;

/** A vector space of the index: passage vectors (text embedder) or frame vectors (image–text model). */
export interface VectorSpace {
  kind: VectorKind;
  model: string;
  dims: number;
}

/** A query vector and the least cosine similarity that still counts as a semantic hit in its space. */
export interface QueryVector {
  vector: Float32Array;
  minSimilarity: number;
}

/** Embeds search queries; `null` from embed() means "this space cannot be searched here". */
export interface QueryEmbedder {
  /**
   * @example
   * const q = await embedder.embed('sunset over the lake', { kind: 'passage', model: 'multilingual-e5-small', dims: 384 });
   */
  embed(query: string, space: VectorSpace): Promise<QueryVector | null>;
  /**
   * A query picture in a frame space (the image–text model's vision tower); absent or null: not searchable.
   * @example
   * const q = await embedder.embedImage?.(picture, { kind: 'frame', model: 'clip-vit-b32', dims: 512 });
   */
  embedImage?(picture: RgbPicture, space: VectorSpace): Promise<QueryVector | null>;
}

/**
 * Cosine floors per kind. e5 similarities of unrelated texts sit around 0.7–0.8 and CLIP text–image
 * similarities of related pairs around 0.2–0.35, so one number cannot serve both. These are starting
 * values, not measurements on real models (none can be downloaded here).
 */
export const DEFAULT_MIN_SIMILARITY: Record<VectorKind, number> = { passage: 0.8, frame: 0.2 };

/**
 * The QueryEmbedder over the installed models of the models dir: the text embedder for passage spaces,
 * the image–text model's text tower for frame spaces. A space whose model is not installed is skipped.
 * @example
 * const embedder = modelQueryEmbedder({ modelsDir: '/data/models' });
 */
export function modelQueryEmbedder(models: { modelsDir: string; manifest?: Manifest }, minSimilarity = DEFAULT_MIN_SIMILARITY): QueryEmbedder {
  return {
    async embed(query, space) {
      try {
        const vector =
          space.kind === 'passage'
            ? (await (await getTextEmbedder({ ...models, modelId: space.model })).embedQueries([query]))[0]
            : (await (await getImageTextEmbedder({ ...models, modelId: space.model })).embedTexts([query]))[0];
        return vector && vector.length === space.dims ? { vector, minSimilarity: minSimilarity[space.kind] } : null;
      } catch (err) {
        // A model removed or renamed since indexing: its vectors wait for a reindex.
        if (err instanceof ModelNotInstalledError || err instanceof UnknownModelError) return null;
        throw err;
      }
    },
    async embedImage(picture, space) {
      if (space.kind !== 'frame') return null;
      try {
        const [vector] = await (await getImageTextEmbedder({ ...models, modelId: space.model })).embedImages([picture]);
        return vector && vector.length === space.dims ? { vector, minSimilarity: IMAGE_MIN_SIMILARITY } : null;
      } catch (err) {
        if (err instanceof ModelNotInstalledError || err instanceof UnknownModelError) return null;
        throw err;
      }
    },
  };
}
