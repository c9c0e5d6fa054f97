/**
 * The shapes the analysis pipeline produces and indexing stores, derived from the analysis schema
 * (schema.ts): a field is added there, never here. Times are seconds from the start of the media.
 */
import type { z } from 'zod';
import type { ANALYSIS, StoredAnalysis } from './schema.js';

type Parts = typeof ANALYSIS;

/** A stretch of text with its time: a transcript segment or a merged on-screen text entry. */
export type TimedText = z.infer<Parts['TimedText']>;

/**
 * What is seen in a stretch of video: on-screen text (`ocr`, the lines OCR read) and zero-shot visual tags
 * (empty without the image-text model), and `summary`, a readable sentence made of them.
 */
export type VisualEntry = z.infer<Parts['VisualEntry']>;

/**
 * A picture of a video: the thumbnail of a keyframe the visual pass decoded, standing for the stretch from
 * `from` (the start of its shot, or its own time) until the next picture's `from`, over which the video
 * looks the same; `time` is when the thumbnail was taken. `thumbnail` is a path as for episodes; null where
 * no thumbnail was kept.
 */
export type TimedPicture = z.infer<Parts['TimedPicture']>;

/**
 * One episode (chapter): episodes cover the media without gaps or overlaps. `audio` holds the transcript
 * segments overlapping it; `thumbnail` is a JPEG, a path relative to the data dir once stored, absolute while
 * only analysed, showing the moment `thumbnailTime`. `pictures` are the pictures seen in it, in time order
 * (the first may have begun before it): a search result shows the one on screen at its start. Absent for
 * audio, photos and analyses from before them.
 */
export type EpisodeAnalysis = z.infer<Parts['Episode']>;

/**
 * A subtitle track besides the one the transcript came from: another language of the same media.
 * `language` is a base code (`de`, `fr`), `und` when neither the track nor its words tell.
 */
export type SubtitleTrack = z.infer<Parts['SubtitleTrack']>;

/** The fingerprint of the frame at `time` (media/perceptual.ts). */
export type TimedPrint = z.infer<Parts['TimedPrint']>;

/** A float32 vector tied to an episode (and a moment in it). */
export interface EpisodeVector {
  episodeIndex: number;
  time: number;
  vector: Float32Array;
}

/** Vectors of one model: text passages (one per episode, the text embedder) or frames (the image-text model). */
export interface VectorSet {
  model: string;
  dims: number;
  items: EpisodeVector[];
}

/**
 * Everything the pipeline learned about one media file: the schema's fields, with its vectors as float32.
 * Optional fields are absent in analyses from before them: `width`/`height` (the picture as shown),
 * `subtitleLanguages` and `subtitleTracks` (the transcript's track first), `framePrints`, `frameSequence`
 * (media/scenes.ts), `soundPrint` (media/sound-print.ts), `faces` (null or absent when faces were not looked
 * for) and `facesSamePerson` (the face embedder's same-person cosine). `warnings` are keyed messages
 * (warnings.ts; English words in analyses from before keys), said in words in the task result.
 */
export type MediaAnalysis = Omit<StoredAnalysis, 'passageVectors' | 'frameVectors'> & {
  passageVectors: VectorSet | null;
  frameVectors: VectorSet | null;
};
