/**
 * Who speaks when, inside one recording: windows of speech grouped by how alike their voices sound
 * (agglomerative clustering, ml-hclust), then runs of one voice made into turns labelled 1, 2, … in the order
 * they first speak. With no model a window's voice is its pitch and MFCCs (media/voice-features.ts); with the
 * pulled speaker pair it is the embedder's vector of a piece of one voice (voice-pieces.ts). Labels are
 * anonymous and nothing of a voice is kept beyond them.
 */
import { agnes } from 'ml-hclust';
import type { VoiceWindow } from '../media/voice-features.js';
import type { Span } from '../tools/time-spans.js';
import type { VoicePiece } from './voice-pieces.js';

/** One speaker's turn: from `start` to `end`, speaker `speaker` (1-based, in the order they first speak). */
export interface SpeakerTurn extends Span {
  speaker: number;
}

/**
 * How far apart two groups of windows may be (average linkage over voiceDistance) and still be one voice.
 * One voice's windows lie about 1 apart, a voice an octave away (pitch alone) about 4.6.
 */
export const SAME_VOICE_DISTANCE = 2.5;
/** What counts as one unit of difference: in log pitch (about 16 %), and in the MFCC means. */
const PITCH_UNIT = 0.15;
const TIMBRE_UNIT = 10;
/**
 * At most this many windows are clustered: average linkage compares all pairs, again and again (600 take
 * about 0.8 s on one core, 1,000 take 3.7 s), so longer recordings get longer windows, and a recording of many
 * short utterances (one window each at least) is clustered on an even sample of them.
 */
export const MAX_WINDOWS = 600;
/** At most this many short windows find the turns' edges (each is only compared with the voices). */
export const MAX_EDGE_WINDOWS = 20_000;
/** A voice heard for less than this share of the speech (or 2 s) is folded into the nearest other voice. */
const SMALLEST_SHARE = 0.05;
/** Windows of one voice this far apart (s) are two turns. */
const TURN_GAP = 1.5;

/**
 * The window length that keeps a recording's speech within `most` windows, at least `base` seconds.
 * @example
 * windowSeconds(600, 2); // 2
 * windowSeconds(7200, 2); // 12: two hours of speech in 600 windows
 */
export function windowSeconds(speechSeconds: number, base: number, most = MAX_WINDOWS): number {
  return Math.max(base, speechSeconds / most);
}

/** How the voices of windows are compared and averaged, and how far apart two groups may be and be one voice. */
interface VoiceMeasure<W extends Span> {
  distance(a: W, b: W): number;
  centre(members: readonly W[]): W;
  sameVoice: number;
  /** Which big voice a voice heard too briefly joins; `distance` where not given. */
  foldDistance?(a: W, b: W): number;
}

/** The model-free measure: pitch and MFCC means. */
const FEATURES: VoiceMeasure<VoiceWindow> = {
  distance: (a, b) => voiceDistance(a, b),
  centre: (m) => centreOf(m),
  sameVoice: SAME_VOICE_DISTANCE,
  // A brief voice's pitch is often unsure: it joins the voice whose spectral envelope is nearest.
  foldDistance: (a, b) => timbreDistance(a.features, b.features),
};

/**
 * Speaker turns from voice windows: none without windows, one speaker when every window sounds alike.
 * @example
 * speakerTurns(windows); // [{ speaker: 1, start: 0.4, end: 5.2 }, { speaker: 2, start: 5.6, end: 9 }, …]
 */
export function speakerTurns(windows: readonly VoiceWindow[], fine: readonly VoiceWindow[] = []): SpeakerTurn[] {
  return turnsBy(windows, fine, FEATURES);
}

/**
 * Speaker turns from the pulled pair's voice pieces, which are one voice when their vectors' cosine is at
 * least `sameSpeakerCosine` (the embedder's, from the manifest).
 * @example
 * pieceTurns(pieces, 0.3); // [{ speaker: 1, start: 0.4, end: 5.2 }, …]
 */
export function pieceTurns(pieces: readonly VoicePiece[], sameSpeakerCosine: number): SpeakerTurn[] {
  const measure: VoiceMeasure<VoicePiece> = {
    distance: (a, b) => 1 - dot(a.vector, b.vector),
    centre: (members) => ({ start: 0, end: 0, vector: unitMean(members.map((m) => m.vector)) }),
    sameVoice: 1 - sameSpeakerCosine,
  };
  return turnsBy(pieces, [], measure);
}

function turnsBy<W extends Span>(windows: readonly W[], fine: readonly W[], measure: VoiceMeasure<W>): SpeakerTurn[] {
  if (windows.length === 0) return [];
  // A long recording's voices are told apart on an even sample of its windows; every window then takes the
  // voice it sounds nearest to (clustering all pairs of thousands would take minutes and much memory).
  const sample = windows.length <= MAX_WINDOWS ? windows : evenly(windows, MAX_WINDOWS);
  const labels = sample.length === 1 ? [0] : clusterLabels(sample, measure);
  const folded = foldSmallVoices(sample, labels, measure);
  const voices = [...new Set(folded)].map((label) => ({ label, centre: measure.centre(sample.filter((_, i) => folded[i] === label)) }));
  const nearest = (w: W) => voices.reduce((best, v) => (measure.distance(w, v.centre) < measure.distance(w, best.centre) ? v : best)).label;
  if (fine.length === 0) return turnsOf(windows, numberedByFirstWord(smooth(sample === windows ? folded : windows.map(nearest))));
  // The voices are told apart on long windows (what is said averages out); where one voice hands over to the
  // next is then found on short ones, each taking the voice it sounds nearest to.
  return turnsOf(fine, numberedByFirstWord(smooth(fine.map(nearest))));
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The mean of unit vectors, made a unit vector again. */
function unitMean(vectors: readonly Float32Array[]): Float32Array {
  const mean = new Float32Array(vectors[0]?.length ?? 0);
  for (const v of vectors) for (let i = 0; i < v.length; i++) mean[i]! += v[i]!;
  const norm = Math.hypot(...mean) || 1;
  return mean.map((x) => x / norm);
}

/** `n` items spread evenly over a list, in order. */
function evenly<T>(list: readonly T[], n: number): T[] {
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

/** The mean of windows: what a voice sounds like on the whole. */
function centreOf(members: readonly VoiceWindow[]): VoiceWindow {
  const pitched = members.filter((m) => m.pitch !== null);
  return {
    start: 0,
    end: 0,
    features: members[0]!.features.map((_, d) => members.reduce((s, m) => s + m.features[d]!, 0) / members.length),
    pitch: pitched.length ? pitched.reduce((s, m) => s + m.pitch!, 0) / pitched.length : null,
    pitchSpread: 0,
  };
}

/**
 * How different two windows sound: their pitch (a window without voiced frames tells none) and their
 * spectral envelope (MFCC means), each in units where one voice's windows differ by about one.
 */
function voiceDistance(a: VoiceWindow, b: VoiceWindow): number {
  const pitch = a.pitch === null || b.pitch === null ? 0 : (a.pitch - b.pitch) / PITCH_UNIT;
  let timbre = 0;
  for (let i = 0; i < MEANS; i++) timbre += (a.features[i]! - b.features[i]!) ** 2;
  return Math.sqrt(pitch ** 2 + timbre / TIMBRE_UNIT ** 2);
}

/** The MFCC means lead each window's features (voice-features.ts). */
const MEANS = 12;

/** The distance of two windows' MFCC means alone. */
function timbreDistance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < MEANS; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s);
}

/** The cluster of each window. */
function clusterLabels<W extends Span>(windows: readonly W[], measure: VoiceMeasure<W>): number[] {
  const matrix = windows.map((a) => windows.map((b) => measure.distance(a, b)));
  const tree = agnes(matrix, { method: 'average', isDistanceMatrix: true });
  const labels = new Array<number>(windows.length).fill(0);
  tree.cut(measure.sameVoice).forEach((cluster, k) => {
    for (const i of cluster.indices()) labels[i] = k;
  });
  return labels;
}

/** Labels of voices heard too briefly to be a person of their own, replaced by the nearest voice's (by centroid). */
function foldSmallVoices<W extends Span>(windows: readonly W[], labels: number[], measure: VoiceMeasure<W>): number[] {
  const seconds = new Map<number, number>();
  const total = windows.reduce((s, w) => s + (w.end - w.start), 0);
  windows.forEach((w, i) => {
    seconds.set(labels[i]!, (seconds.get(labels[i]!) ?? 0) + (w.end - w.start));
  });
  const big = [...seconds].filter(([, s]) => s >= Math.min(2, total) && s >= SMALLEST_SHARE * total).map(([l]) => l);
  if (big.length === 0) return labels.map(() => 0);
  const centres = new Map(big.map((l) => [l, measure.centre(windows.filter((_, i) => labels[i] === l))]));
  return labels.map((l, i) => {
    if (centres.has(l)) return l;
    let best = big[0]!;
    let bestDistance = Infinity;
    for (const [c, centre] of centres) {
      const d = (measure.foldDistance ?? measure.distance)(windows[i]!, centre);
      if (d < bestDistance) [best, bestDistance] = [c, d];
    }
    return best;
  });
}

/** A lone window between two of one other voice takes theirs: one window is too short to be a turn. */
function smooth(labels: number[]): number[] {
  return labels.map((l, i) => (i > 0 && i < labels.length - 1 && labels[i - 1] === labels[i + 1] && labels[i - 1] !== l ? labels[i - 1]! : l));
}

/** Labels renumbered 1, 2, … in the order the voices first speak. */
function numberedByFirstWord(labels: number[]): number[] {
  const order = new Map<number, number>();
  for (const l of labels) if (!order.has(l)) order.set(l, order.size + 1);
  return labels.map((l) => order.get(l)!);
}

/** Runs of one voice as turns. */
function turnsOf(windows: readonly Span[], speakers: number[]): SpeakerTurn[] {
  const turns: SpeakerTurn[] = [];
  windows.forEach((w, i) => {
    const last = turns.at(-1);
    if (last && last.speaker === speakers[i] && w.start - last.end <= TURN_GAP) last.end = w.end;
    else turns.push({ speaker: speakers[i]!, start: w.start, end: w.end });
  });
  return turns;
}

/**
 * The speaker of each line: the turn that covers most of it, or null where no turn does.
 * @example
 * lineSpeakers([{ start: 0, end: 2, text: 'Hi' }], [{ speaker: 1, start: 0, end: 3 }]); // [1]
 */
export function lineSpeakers(lines: readonly Span[], turns: readonly SpeakerTurn[]): (number | null)[] {
  return lines.map((line) => {
    let best: number | null = null;
    let most = 0;
    for (const t of turns) {
      if (t.start >= line.end) break;
      const overlap = Math.min(line.end, t.end) - Math.max(line.start, t.start);
      if (overlap > most) [best, most] = [t.speaker, overlap];
    }
    return best;
  });
}

/** A speaker's print by the pulled embedder: which model, the unit mean of their pieces' vectors, and its bound. */
export interface VoiceEmbedding {
  model: string;
  vector: number[];
  /** The embedder's cosine at or above which two prints are one voice. */
  sameCosine: number;
}

/**
 * What one speaker of a recording sounds like on the whole (their windows' mean pitch and MFCC means, and with
 * the pulled embedder the mean of their pieces' vectors) and for how long they speak. Made only where the
 * collection groups voices across its items: a voiceprint is biometric data.
 */
export interface VoicePrint {
  speaker: number;
  seconds: number;
  /** Mean log pitch; null when too few frames were voiced. */
  pitch: number | null;
  /** The MFCC means (12). */
  timbre: number[];
  /** The embedder's print, where the pulled speaker pair told the voices apart. */
  embedding?: VoiceEmbedding;
}

/**
 * One print per speaker of `turns`, from the windows (and the embedder's pieces) whose middle lies in their turns.
 * @example
 * voicePrints(windows, speakerTurns(windows)); // [{ speaker: 1, seconds: 12.5, pitch: 4.9, timbre: [...] }, …]
 * voicePrints(windows, turns, { pieces, model: 'wespeaker-resnet34-lm', sameCosine: 0.3 }); // … embedding: {…}
 */
export function voicePrints(windows: readonly VoiceWindow[], turns: readonly SpeakerTurn[], embedded?: { pieces: readonly VoicePiece[]; model: string; sameCosine: number }): VoicePrint[] {
  const speakers = [...new Set(turns.map((t) => t.speaker))].sort((a, b) => a - b);
  return speakers.flatMap((speaker) => {
    const own = turns.filter((t) => t.speaker === speaker);
    const inOwn = (w: Span) => own.some((t) => (w.start + w.end) / 2 >= t.start && (w.start + w.end) / 2 <= t.end);
    const members = windows.filter(inOwn);
    if (members.length === 0) return [];
    const centre = centreOf(members);
    const pieces = embedded?.pieces.filter(inOwn) ?? [];
    const embedding = embedded && pieces.length ? { model: embedded.model, vector: [...unitMean(pieces.map((p) => p.vector))].map(round4), sameCosine: embedded.sameCosine } : null;
    return [{ speaker, seconds: own.reduce((s, t) => s + (t.end - t.start), 0), pitch: centre.pitch, timbre: centre.features.slice(0, MEANS), ...(embedding ? { embedding } : {}) }];
  });
}

/** Rounded so a stored print stays short; far finer than one voice's spread. */
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * How different two voiceprints sound, in the units of the turns inside one recording.
 * @example
 * voicePrintDistance(a, b) <= SAME_VOICE_ACROSS; // the same voice
 */
export function voicePrintDistance(a: Pick<VoicePrint, 'pitch' | 'timbre'>, b: Pick<VoicePrint, 'pitch' | 'timbre'>): number {
  const asWindow = (p: Pick<VoicePrint, 'pitch' | 'timbre'>): VoiceWindow => ({ start: 0, end: 0, features: p.timbre, pitch: p.pitch, pitchSpread: 0 });
  return voiceDistance(asWindow(a), asWindow(b));
}

/**
 * How far apart two voiceprints are as a share of the bound within which they are one voice (≤ 1: one voice).
 * Where both carry one embedder's print, that print decides (the embedder hears voices the MFCCs confuse);
 * otherwise the MFCC prints do, against `sameAcross` (SAME_VOICE_ACROSS).
 * @example
 * voiceNearness(print, person.centre) <= 1; // the same voice
 */
export function voiceNearness(a: Pick<VoicePrint, 'pitch' | 'timbre' | 'embedding'>, b: Pick<VoicePrint, 'pitch' | 'timbre' | 'embedding'>, sameAcross = SAME_VOICE_ACROSS): number {
  if (a.embedding && b.embedding && a.embedding.model === b.embedding.model) {
    let cos = 0;
    for (let i = 0; i < a.embedding.vector.length; i++) cos += a.embedding.vector[i]! * (b.embedding.vector[i] ?? 0);
    return (1 - cos) / Math.max(1e-6, 1 - a.embedding.sameCosine);
  }
  return voicePrintDistance(a, b) / sameAcross;
}

/**
 * How far apart two recordings' prints of one voice may be. Prints are means over a speaker's windows, so one
 * voice's prints lie closer than its windows. On espeak-ng talks (2026-11-29, `npm run bench:voices -- --across
 * 5 --same D`): two clearly different voices stay apart and each is one person from 1.6 to 2.5, while below
 * 1.6 one voice falls apart over several people (0.8: 5 people for 2 voices); voices a pitch step apart are
 * mixed already inside a recording, so they share a person at any bound. The lowest bound that keeps one
 * voice whole: a voice split over two people is mended by a merge, two voices in one person are not found.
 */
export const SAME_VOICE_ACROSS = 1.6;
