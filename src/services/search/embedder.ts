/**
 * How a search query becomes vectors. The search service only knows the QueryEmbedder interface, so
 * vidx searches lexically with no models installed, and tests inject small deterministic vectors.
 */
import { getImageTextEmbedder, getTextEmbedder } from '../../ml/embed/index.js';
import { ModelNotInstalledError } from '../../ml/registry/local.js';
import { UnknownModelError, type Manifest } from '../../ml/registry/manifest.js';
import type { VectorKind } from '../../store/search-index.js';
import type { RgbPicture } from '../../media/perceptual.js';
import { VECTORS } from './ranking-knobs.js';

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
 * The QueryEmbedder over the installed models of the models dir: the text embedder for passage spaces,
 * the image–text model's text tower for frame spaces. A space whose model is not installed is skipped.
 * Each query vector carries its floor (VECTORS in ranking-knobs.ts), a picture's its own.
 * @example
 * const embedder = modelQueryEmbedder({ modelsDir: '/data/models' });
 */
export function modelQueryEmbedder(models: { modelsDir: string; manifest?: Manifest }, minSimilarity: Readonly<Record<VectorKind, number>> = VECTORS.minSimilarity): QueryEmbedder {
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
        return vector && vector.length === space.dims ? { vector, minSimilarity: VECTORS.pictureMinSimilarity } : null;
      } catch (err) {
        if (err instanceof ModelNotInstalledError || err instanceof UnknownModelError) return null;
        throw err;
      }
    },
  };
}
