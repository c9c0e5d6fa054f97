import type { Db } from '../db.js';

/**
 * Issue 45: which pulled speaker pair told an item's voices apart (`item_analysis.speakers_model`, e.g.
 * `pyannote-segmentation-3.0+wespeaker-resnet34-lm`); null where the model-free default did, and before.
 * @example
 * m042SpeakersModel(db);
 */
export function m042SpeakersModel(db: Db): void {
  db.exec('ALTER TABLE item_analysis ADD COLUMN speakers_model TEXT');
}
