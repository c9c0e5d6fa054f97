import { describeCapabilities, type CapabilityName } from './capabilities.js';
import { pulledModel, type CapabilityStatus } from './pulled-model.js';
import { createOcr, type Ocr } from './ocr/index.js';
import { getTranscriber, type Transcriber } from './asr/index.js';
import { getImageTextEmbedder, getTextEmbedder, type ImageTextEmbedder, type TextEmbedder } from './embed/index.js';
import { loadManifest, type Capability, type Manifest } from './registry/manifest.js';
import { loadFaceEmbedder, type FaceEmbedder } from './face/embed.js';
import { loadSpeakerEmbedder, loadSpeakerSegmenter, type SpeakerEmbedder, type SpeakerSegmenter } from './speakers/models.js';
import { defaultTools, type MediaTools } from '../media/binaries.js';
import { DEFAULT_MODEL_SETUP, type ModelSetup } from './assets.js';
import type { ModelChoice } from './registry/local.js';

/** Where models are and which manifest names them. */
export interface ModelRuntimeOptions {
  modelsDir: string;
  /** A manifest other than models/manifest.json (tests point this at their fixture models). */
  manifestPath?: string;
  /** The external tools of this server (from its settings); default: npm packages, then PATH. */
  tools?: MediaTools;
  /** The shipped model files and ONNX providers of this server (from its settings); default: packages, CPU. */
  setup?: ModelSetup;
}

/**
 * The one door to every model: capabilities without loading anything, and lazily loaded, shared
 * engines. A pulled model that is absent gives `null`, so callers degrade instead of failing.
 * @example
 * const models = new ModelRuntime({ modelsDir });
 * const asr = await models.transcriber(); // null until `vidx models pull whisper-base`
 */
export class ModelRuntime {
  private readonly manifest: Manifest;
  private ocrEngine: Ocr | null = null;
  /**
   * The server's external tools (ffmpeg, Tesseract …). They ride here because the runtime is what every
   * analysis is handed, on the main thread and in each analysis thread.
   */
  readonly tools: MediaTools;
  /** Which shipped model files and ONNX providers this server's sessions use. */
  readonly setup: ModelSetup;

  constructor(private readonly opts: ModelRuntimeOptions) {
    this.manifest = loadManifest(opts.manifestPath);
    this.tools = opts.tools ?? defaultTools;
    this.setup = opts.setup ?? DEFAULT_MODEL_SETUP;
  }

  get modelsDir(): string {
    return this.opts.modelsDir;
  }

  capabilities(): Record<CapabilityName, CapabilityStatus> {
    return describeCapabilities(this.opts.modelsDir, { manifest: this.manifest, tools: this.tools, assets: this.setup.assets });
  }

  /**
   * One pulled model's status, read now (a model pulled while the server runs counts at once), without the
   * others: an analysis asks three or four of them per file, and reading every capability's files each time
   * was about 5 ms of a photo's analysis (stat calls over the whole models dir; 2026-11-30).
   * @example
   * models.pulled('image_text').reason; // 'missing: run `vidx models pull clip-vit-base-patch32`'
   */
  pulled(capability: Capability): CapabilityStatus {
    return pulledModel(this.opts.modelsDir, capability, { manifest: this.manifest });
  }

  /** PaddleOCR over the npm-shipped models: always there. */
  ocr(): Ocr {
    this.ocrEngine ??= createOcr({ tools: this.tools, setup: this.setup });
    return this.ocrEngine;
  }

  async transcriber(): Promise<Transcriber | null> {
    if (!this.pulled('asr').available) return null;
    return getTranscriber(this.choice());
  }

  async textEmbedder(): Promise<TextEmbedder | null> {
    if (!this.pulled('text_embedding').available) return null;
    return getTextEmbedder(this.choice());
  }

  /** The pulled face embedder (SFace), or null: faces are then found but not grouped into people. */
  async faceEmbedder(): Promise<FaceEmbedder | null> {
    if (!this.pulled('face_embedding').available) return null;
    return loadFaceEmbedder(this.choice());
  }

  /**
   * The pulled speaker pair, or null: the speakers step then tells voices apart without a model. The embedder
   * alone is enough (it listens to the speech in short windows); the segmenter finds where one voice hands over.
   */
  async speakerModels(): Promise<{ embedder: SpeakerEmbedder; segmenter: SpeakerSegmenter | null } | null> {
    if (!this.pulled('speaker_embedding').available) return null;
    const embedder = await loadSpeakerEmbedder(this.choice());
    return { embedder, segmenter: this.pulled('speaker_segmentation').available ? await loadSpeakerSegmenter(this.choice()) : null };
  }

  async imageText(): Promise<ImageTextEmbedder | null> {
    if (!this.pulled('image_text').available) return null;
    return getImageTextEmbedder(this.choice());
  }

  /** The models dir, manifest and providers a pulled model is loaded with. */
  private choice(): ModelChoice {
    return { modelsDir: this.opts.modelsDir, manifest: this.manifest, providers: this.setup.providers };
  }
}
