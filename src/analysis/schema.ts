/**
 * The pipeline's output as one zod schema: what an analysis holds, field by field, with the bounds a
 * made-up one must keep. Its TypeScript types (types.ts) are derived from it, and so are the forms it
 * travels in: the cache's JSON and a remote worker's delivery (http/schemas/workers.ts builds the same
 * schema with file names for its files). A field a step adds is written here once; the cache, the wire and
 * the store then carry it, or the build fails (search/indexer.ts lists where each field is stored).
 *
 * Vectors are base64 of their float32 bytes here, the JSON form; in memory they are Float32Arrays
 * (types.ts, cache.ts).
 */
import { z } from 'zod';
import { LANGS } from '../messages/index.js';
import { SOUND_PRINT_FPS, SOUND_PRINT_SECONDS } from '../media/sound-print.js';
import type { FramePrint } from '../media/perceptual.js';
import type { FrameSequence } from '../media/scenes.js';
import type { SoundPrint } from '../media/sound-print.js';
import type { FaceTrack } from './faces.js';
import type { VoicePrint } from './speakers.js';
import { warningSchema } from './warnings.js';

/**
 * What an analysis holds at most: generous for hours of media, small enough that a made-up one (a remote
 * worker's) cannot fill the server's disk or memory.
 */
export const ANALYSIS_BOUNDS = {
  /** Characters of one line of text, one summary, one title, one warning. */
  text: 20_000,
  /** Entries of a transcript, screen text, visual list, frame print list. */
  entries: 100_000,
  /** Episodes and face tracks. */
  episodes: 10_000,
  /** OCR lines and tags of one visual entry; warnings; subtitle tracks. */
  words: 500,
  /** Vector dimensions. */
  dims: 4_096,
  /** Characters of the frame sequence's hashes (16 per frame, 4 frames a second, 12 hours). */
  sequence: 16 * 4 * 3600 * 12,
  /** Characters of the frame sequence's looks (26 per frame, beside each hash). */
  looks: 26 * 4 * 3600 * 12,
  /** Characters of a sound print (10 per frame, 10 frames a second, at most half an hour). */
  sound: 10 * SOUND_PRINT_FPS * SOUND_PRINT_SECONDS,
} as const;

const B = ANALYSIS_BOUNDS;

/**
 * The analysis schema and its parts, with `file` as the schema of a file an analysis names (an episode's
 * thumbnail and pictures, a face crop): any path in the cache, a file name of the delivery on the wire.
 * @example
 * const { MediaAnalysis } = analysisSchemas(z.string().regex(/^ep-\d+\.jpg$/).nullable());
 * MediaAnalysis.parse(JSON.parse(body));
 */
export function analysisSchemas<F extends z.ZodType<string | null>>(file: F) {
  const Text = z.string().max(B.text);
  // Times may dip a little below 0 (a stream's first pts); nothing vidx reads lasts longer than months.
  const Seconds = z.number().min(-3_600).max(1e7);
  // A transcript line's speaker: the turn of `speakers` that covers most of it (absent where none does).
  const TimedText = z.object({ start: Seconds, end: Seconds, text: Text, speaker: z.number().int().min(1).max(1_000).optional() });
  const SpeakerTurn = z.object({ speaker: z.number().int().min(1).max(1_000), start: Seconds, end: Seconds });
  const VoiceEmbedding = z.object({ model: z.string().max(200), vector: z.array(z.number().min(-1).max(1)).min(1).max(B.dims), sameCosine: z.number().min(-1).max(1) });
  const VoicePrint = z.object({
    speaker: z.number().int().min(1).max(1_000), seconds: z.number().min(0).max(1e7), pitch: z.number().min(-100).max(100).nullable(), timbre: z.array(z.number().min(-1e4).max(1e4)).length(12),
    embedding: VoiceEmbedding.optional().describe("The pulled speaker embedder's print (unit mean of the speaker's pieces), where the pair told the voices apart"),
  });
  const VisualEntry = z.object({ start: Seconds, end: Seconds, summary: Text, ocr: z.array(Text).max(B.words), tags: z.array(z.string().max(200)).max(B.words) });
  const TimedPicture = z.object({ from: Seconds, time: Seconds, thumbnail: file });
  const Episode = z.object({
    index: z.number().int().min(0).max(B.episodes), start: Seconds, end: Seconds,
    audio: z.array(TimedText).max(B.entries), visual: z.array(VisualEntry).max(B.entries),
    summary: Text, thumbnail: file, thumbnailTime: Seconds,
    pictures: z.array(TimedPicture).max(B.entries).optional(),
  });
  const SubtitleTrack = z.object({ language: z.string().min(1).max(16), source: z.enum(['sidecar', 'embedded']), segments: z.array(TimedText).max(B.entries) });
  const VectorItem = z.object({ episodeIndex: z.number().int().min(0), time: Seconds, vector: z.string().max(Math.ceil((B.dims * 4) / 3) + 4).describe('float32 values, little-endian, base64') });
  // Sign bits of a vector fill whole bytes (the vector tables' binary index): its dimensions come in eights.
  const Vectors = z.object({ model: z.string().max(200), dims: z.number().int().min(8).max(B.dims).multipleOf(8), items: z.array(VectorItem).max(B.entries) }).nullable();
  const TimedPrint = z.object({ time: Seconds, hash: z.string().regex(/^[0-9a-f]{16}$/), detail: z.string().regex(/^[0-9a-f]{64}$/), colour: z.array(z.number()).length(48) });
  const FrameSequence = z.object({ fps: z.number().min(0).max(1_000), hashes: z.string().max(B.sequence).regex(/^[0-9a-f]*$/), looks: z.string().max(B.looks).regex(/^[0-9a-f]*$/).optional() });
  const SoundPrint = z.object({ fps: z.number().min(0).max(1_000), frames: z.string().max(B.sound).regex(/^[0-9a-f]*$/) });
  const Face = z.object({
    start: Seconds, end: Seconds,
    box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
    score: z.number(), thumbnail: file, vector: z.array(z.number()).max(B.dims).nullable(), personId: z.string().max(200).nullable(),
  });
  const MediaAnalysis = z.object({
    type: z.enum(['video', 'audio', 'image']),
    duration: Seconds,
    width: z.number().int().min(0).max(1e5).nullable().optional(),
    height: z.number().int().min(0).max(1e5).nullable().optional(),
    language: z.enum(LANGS),
    title: z.string().max(1_000).nullable(),
    transcript: z.array(TimedText).max(B.entries),
    transcriptSource: z.enum(['sidecar', 'embedded', 'asr', 'none']),
    subtitleLanguages: z.array(z.string().min(1).max(16)).max(B.words).optional(),
    subtitleTracks: z.array(SubtitleTrack).max(B.words).optional(),
    screenText: z.array(TimedText).max(B.entries),
    visual: z.array(VisualEntry).max(B.entries),
    episodes: z.array(Episode).max(B.episodes),
    summary: z.string().max(B.text * 10),
    warnings: z.array(warningSchema(B.text)).max(B.words),
    passageVectors: Vectors,
    frameVectors: Vectors,
    framePrints: z.array(TimedPrint).max(B.entries).optional().describe('Perceptual fingerprints of the keyframes (a photo: one at time 0)'),
    frameSequence: FrameSequence.nullable().optional(),
    soundPrint: SoundPrint.nullable().optional().describe('The sound print of a video (its first half hour): change bits, shape bits and loudness per tenth of a second, hex'),
    speakers: z.array(SpeakerTurn).max(B.entries).optional().describe('Who speaks when: anonymous speakers 1, 2, … in the order they first speak (absent for photos and older analyses)'),
    speakersModel: z.string().max(200).optional().describe('The pulled model (segmentation+embedder, or the embedder alone) that told the voices apart; absent when none did'),
    faces: z.array(Face).max(B.episodes).nullable().optional(),
    facesSamePerson: z.number().nullable().optional(),
    voices: z.array(VoicePrint).max(1_000).nullable().optional().describe('Each speaker\'s voiceprint, only where the collection groups voices (biometric data)'),
  });
  return { TimedText, SpeakerTurn, VoicePrint, VisualEntry, TimedPicture, Episode, SubtitleTrack, VectorItem, Vectors, TimedPrint, FrameSequence, SoundPrint, Face, MediaAnalysis };
}

/** The schemas of an analysis as the cache holds it: files as paths. */
export const ANALYSIS = analysisSchemas(z.string().nullable());

/** An analysis in its JSON form (the cache's files, a job's delivery): vectors as base64. */
export type StoredAnalysis = z.infer<typeof ANALYSIS.MediaAnalysis>;

/** Compiles only when A and B are assignable both ways: a type the media layer owns matches its part of the schema. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Parts = typeof ANALYSIS;
/** The media layer's and the face stage's own types are the schema's parts (a field added there and not here fails the build). */
export const OWN_TYPES_MATCH: [
  Same<Omit<z.infer<Parts['TimedPrint']>, 'time'>, FramePrint>,
  Same<z.infer<Parts['FrameSequence']>, FrameSequence>,
  Same<z.infer<Parts['SoundPrint']>, SoundPrint>,
  Same<z.infer<Parts['Face']>, FaceTrack>,
  Same<z.infer<Parts['VoicePrint']>, VoicePrint>,
] = [true, true, true, true, true];
