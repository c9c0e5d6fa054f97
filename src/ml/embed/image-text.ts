/**
 * Image–text embeddings in one space (CLIP or SigLIP): frames and search queries map to
 * L2-normalised Float32Arrays of the same size, compared by dot product. The text and vision
 * towers load separately on first use, so a search never loads the vision model.
 */
import { requireInstalledModel, sharedModel, type ModelChoice } from '../registry/local.js';
import type { ModelEntry } from '../registry/manifest.js';
import { loadTransformers, sessionOptions } from '../registry/transformers.js';
import { inBatches, splitRows } from './vectors.js';
import { providerKey, type OnnxProviders } from '../providers.js';

/** A decoded frame: interleaved RGB (or RGBA) bytes, row-major. */
export interface RgbFrame {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  channels?: 3 | 4;
}

/** A decoded frame, or an encoded JPEG/PNG file's bytes. */
export type ImageInput = RgbFrame | Uint8Array;

export interface ImageTextEmbedder {
  modelId: string;
  dims: number;
  /**
   * @example
   * const [v] = await e.embedImages([{ data: rgb, width: 320, height: 180 }]);
   */
  embedImages(images: ImageInput[]): Promise<Float32Array[]>;
  /**
   * @example
   * const [q] = await e.embedTexts(['a dog on a beach']);
   */
  embedTexts(texts: string[]): Promise<Float32Array[]>;
}

export interface ImageTextEmbedderOptions extends ModelChoice {
  /** Images per model call. Default 8. */
  imageBatchSize?: number;
  /** Texts per model call. Default 32. */
  textBatchSize?: number;
}

// transformers.js types these loosely; this is the part used here.
type Output = Record<string, { data: Float32Array; dims: number[] } | undefined>;
type Callable = (inputs: unknown) => Promise<Output>;
interface TextTower {
  tokenizer: (texts: string[], opts: Record<string, unknown>) => unknown;
  model: Callable;
}
interface VisionTower {
  processor: (images: unknown[]) => Promise<unknown>;
  model: Callable;
}

function pickEmbeddings(out: Output, name: 'text_embeds' | 'image_embeds', dims: number, id: string): Float32Array[] {
  // CLIP exports project to `*_embeds`; SigLIP's towers return the pooled output.
  const t = out[name] ?? out.pooler_output;
  if (!t) throw new Error(`${id} returned neither ${name} nor pooler_output`);
  if (t.dims.at(-1) !== dims) throw new Error(`${id} returned ${t.dims.at(-1)}-d vectors, manifest says ${dims}`);
  return splitRows(t.data, dims);
}

/** Loads one tower of the model: the text tower with its tokenizer, or the vision tower with its image processor. */
async function loadTower<K extends 'text' | 'vision'>(kind: K, entry: ModelEntry, dir: string, providers?: OnnxProviders): Promise<K extends 'text' ? TextTower : VisionTower> {
  const t = await loadTransformers();
  const siglip = entry.family === 'siglip';
  const Model = kind === 'text' ? (siglip ? t.SiglipTextModel : t.CLIPTextModelWithProjection) : siglip ? t.SiglipVisionModel : t.CLIPVisionModelWithProjection;
  const [prepare, model] = await Promise.all([
    kind === 'text' ? t.AutoTokenizer.from_pretrained(dir) : t.AutoProcessor.from_pretrained(dir),
    Model.from_pretrained(dir, { dtype: entry.dtype as never, session_options: sessionOptions(providers) }),
  ]);
  const tower = kind === 'text' ? { tokenizer: prepare, model } : { processor: prepare, model };
  return tower as unknown as K extends 'text' ? TextTower : VisionTower;
}

async function toRawImage(input: ImageInput): Promise<unknown> {
  const { RawImage } = await loadTransformers();
  // Copy: Blob wants an ArrayBuffer-backed view, and a Buffer may sit in a shared pool.
  if (input instanceof Uint8Array) return RawImage.fromBlob(new Blob([Uint8Array.from(input)]));
  const channels = input.channels ?? 3;
  if (input.data.length !== input.width * input.height * channels) {
    throw new Error(`frame data has ${input.data.length} bytes, expected ${input.width}×${input.height}×${channels}`);
  }
  return new RawImage(new Uint8ClampedArray(input.data.buffer, input.data.byteOffset, input.data.length), input.width, input.height, channels);
}

/**
 * The shared image–text embedder (default model unless `modelId`), loaded lazily from local
 * files. Rejects with ModelNotInstalledError (with a pull hint) when the model is not installed.
 * @example
 * const e = await getImageTextEmbedder({ modelsDir: '/data/models' });
 * const [frameVec] = await e.embedImages([jpegBytes]);
 * const [queryVec] = await e.embedTexts(['Sonnenuntergang am Meer']);
 */
export async function getImageTextEmbedder(opts: ImageTextEmbedderOptions): Promise<ImageTextEmbedder> {
  const { entry, dir } = requireInstalledModel(opts, 'image_text');
  const dims = entry.dimensions;
  if (!dims) throw new Error(`manifest gives no dimensions for ${entry.id}`);
  if (entry.family !== 'clip' && entry.family !== 'siglip') throw new Error(`model ${entry.id} is not a CLIP/SigLIP model`);
  const key = `${dir}:${JSON.stringify(entry.dtype)}${providerKey(opts.providers ?? 'cpu')}`;
  const text = () => sharedModel(`image_text/text:${key}`, () => loadTower('text', entry, dir, opts.providers));
  const vision = () => sharedModel(`image_text/vision:${key}`, () => loadTower('vision', entry, dir, opts.providers));
  // SigLIP was trained on texts padded to 64 tokens; CLIP masks padding, so padding to the longest is enough.
  const tokenizeOpts = entry.family === 'siglip' ? { padding: 'max_length', max_length: 64, truncation: true } : { padding: true, truncation: true };

  return {
    modelId: entry.id,
    dims,
    async embedTexts(texts) {
      const tower = await text();
      return inBatches(texts, opts.textBatchSize ?? 32, (t) => t.length, async (batch) => {
        const inputs = tower.tokenizer(batch, tokenizeOpts);
        return pickEmbeddings(await tower.model(inputs), 'text_embeds', dims, entry.id);
      });
    },
    async embedImages(images) {
      const tower = await vision();
      return inBatches(images, opts.imageBatchSize ?? 8, () => 0, async (batch) => {
        const inputs = await tower.processor(await Promise.all(batch.map(toRawImage)));
        return pickEmbeddings(await tower.model(inputs), 'image_embeds', dims, entry.id);
      });
    },
  };
}
