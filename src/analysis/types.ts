/**
 * The shapes the analysis pipeline produces and indexing stores. Times are seconds from the start of the media.
 */
import type { FramePrint } from '../media/perceptual.js';
import type { FrameSequence } from '../media/scenes.js';
import type { SoundPrint } from '../media/sound-print.js';
import type { FaceTrack } from './faces.js';
import type { Lang } from '../messages/index.js';

/** A stretch of text with its time: a transcript segment or a merged on-screen text entry. */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** What is seen in a stretch of video: on-screen text and visual tags, and a sentence made of them. */
export interface VisualEntry {
  start: number;
  end: number;
  /** Readable description, shown as `summary` in the API's `{start, end, summary}` objects. */
  summary: string;
  /** On-screen text lines read by OCR in this stretch. */
  ocr: string[];
  /** Zero-shot visual tags (empty without the image-text model). */
  tags: string[];
}

/** One episode (chapter): episodes cover the media without gaps or overlaps. */
export interface EpisodeAnalysis {
  index: number;
  start: number;
  end: number;
  /** Transcript segments overlapping the episode. */
  audio: TimedText[];
  visual: VisualEntry[];
  summary: string;
  /** Thumbnail JPEG: a path relative to the data dir once stored, absolute while only analysed. */
  thumbnail: string | null;
  /** The moment the thumbnail shows. */
  thumbnailTime: number;
  /**
   * The pictures seen in the episode, in time order ({@link TimedPicture}; the first may have begun before
   * it): a search result shows the one on screen at its start. Absent for audio, photos and analyses from
   * before them.
   */
  pictures?: TimedPicture[];
}

/**
 * A picture of a video: the thumbnail of a keyframe the visual pass decoded, standing for the stretch from
 * `from` (the start of its shot, or its own time) until the next picture's `from`, over which the video
 * looks the same. `thumbnail` is a path as for episodes; null where no thumbnail was kept.
 */
export interface TimedPicture {
  from: number;
  /** The keyframe's time: when the thumbnail was taken. */
  time: number;
  thumbnail: string | null;
}

/** The fingerprint of the frame at `time` (media/perceptual.ts). */
export interface TimedPrint extends FramePrint {
  time: number;
}

/** A float32 vector tied to an episode (and a moment in it). */
export interface EpisodeVector {
  episodeIndex: number;
  time: number;
  vector: Float32Array;
}

/**
 * A subtitle track besides the one the transcript came from: another language of the same media.
 * `language` is a base code (`de`, `fr`), `und` when neither the track nor its words tell.
 */
export interface SubtitleTrack {
  language: string;
  source: 'sidecar' | 'embedded';
  segments: TimedText[];
}

/** Everything the pipeline learned about one media file. */
export interface MediaAnalysis {
  type: 'video' | 'audio' | 'image';
  duration: number;
  /** The picture's size as shown (rotation applied); absent for audio and older analyses. */
  width?: number | null;
  height?: number | null;
  language: Lang;
  title: string | null;
  transcript: TimedText[];
  transcriptSource: 'sidecar' | 'embedded' | 'asr' | 'none';
  /**
   * Languages of the media's subtitle tracks, the transcript's first (base codes: `en`, `de`, `fr`, `und`);
   * empty when the transcript is not from subtitles, absent in analyses from before every track was kept.
   */
  subtitleLanguages?: string[];
  /** The other subtitle tracks, one per language, in `subtitleLanguages` order after the first. */
  subtitleTracks?: SubtitleTrack[];
  screenText: TimedText[];
  visual: VisualEntry[];
  episodes: EpisodeAnalysis[];
  summary: string;
  /** Capabilities that were missing or failed, in words for the task result. */
  warnings: string[];
  /** Text-passage vectors (one per episode) from the text embedder, when installed. */
  passageVectors: { model: string; dims: number; items: EpisodeVector[] } | null;
  /** Frame vectors from the image-text model, when installed. */
  frameVectors: { model: string; dims: number; items: EpisodeVector[] } | null;
  /** Perceptual fingerprints of each keyframe (a photo's one at time 0); absent in analyses from before them. */
  framePrints?: TimedPrint[];
  /** A video's frames hashed at a steady rate (media/scenes.ts); absent for audio, photos and older analyses. */
  frameSequence?: FrameSequence | null;
  /** A video's sound print over its first half hour (media/sound-print.ts); null without sound, absent for photos, audio and older analyses. */
  soundPrint?: SoundPrint | null;
  /** Face tracks (one per person per shot) when faces were looked for; null or absent when not. */
  faces?: FaceTrack[] | null;
  /** The face embedder's same-person cosine (its manifest entry), which groups these tracks; null without one. */
  facesSamePerson?: number | null;
}
