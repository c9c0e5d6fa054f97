import type { Db } from '../db.js';

/**
 * Issue 45, the pulled speaker pair: which models told an item's voices apart (`item_analysis.speakers_model`,
 * e.g. `pyannote-segmentation-3.0+wespeaker-resnet34-lm`; null where the model-free default did, and before),
 * and a voice track's print from the embedder (`voice_tracks.embedding`, JSON `{model, vector, sameCosine}`;
 * null where none was made). A person's centre (`people.voice`) carries its blended embedding in its JSON.
 * @example
 * m042SpeakerModels(db);
 */
export function m042SpeakerModels(db: Db): void {
  db.exec('ALTER TABLE item_analysis ADD COLUMN speakers_model TEXT');
  db.exec('ALTER TABLE voice_tracks ADD COLUMN embedding TEXT');
}
