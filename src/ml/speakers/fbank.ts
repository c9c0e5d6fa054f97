/**
 * Log mel filterbank features as Kaldi computes them (`compute-fbank-feats`, torchaudio's
 * `compliance.kaldi.fbank`): what WeSpeaker's speaker embedders were trained on. 25 ms frames every 10 ms,
 * each with its mean taken off, pre-emphasised, Hamming-windowed and zero-padded to 512, then the power of
 * 80 triangular mel bands between 20 Hz and 8 kHz, logged. Written here because no npm package computes
 * Kaldi's variant; fft.js does the transform.
 */
import FFT from 'fft.js';

/** The sample rate the features are defined for. */
export const FBANK_SAMPLE_RATE = 16_000;
/** Mel bands per frame. */
export const FBANK_BINS = 80;
const FRAME = 400;
const SHIFT = 160;
const PADDED = 512;
const PREEMPHASIS = 0.97;
const LOW_HZ = 20;
/** Kaldi reads 16-bit samples as they are; vidx decodes to floats in -1..1. */
const INT16 = 32_768;
const EPSILON = 1.1920928955078125e-7;

const mel = (hz: number) => 1127 * Math.log(1 + hz / 700);

/** The 80 triangular filters over the 256 FFT bins below Nyquist, as weights per bin. */
function melFilters(): Float32Array[] {
  const lowMel = mel(LOW_HZ);
  const highMel = mel(FBANK_SAMPLE_RATE / 2);
  const step = (highMel - lowMel) / (FBANK_BINS + 1);
  const binHz = FBANK_SAMPLE_RATE / PADDED;
  return Array.from({ length: FBANK_BINS }, (_, b) => {
    const [left, centre, right] = [lowMel + b * step, lowMel + (b + 1) * step, lowMel + (b + 2) * step];
    const weights = new Float32Array(PADDED / 2);
    for (let k = 0; k < PADDED / 2; k++) {
      const m = mel(k * binHz);
      if (m > left && m < right) weights[k] = m <= centre ? (m - left) / (centre - left) : (right - m) / (right - centre);
    }
    return weights;
  });
}

const FILTERS = melFilters();
const HAMMING = Float32Array.from({ length: FRAME }, (_, n) => 0.54 - 0.46 * Math.cos((2 * Math.PI * n) / (FRAME - 1)));

/**
 * The frames of `pcm` (16 kHz, -1..1) as rows of 80 log mel energies, the mean of each band over the
 * frames taken off (WeSpeaker's mean normalisation), flattened row after row. Fewer than 400 samples give no frame.
 * @example
 * const { data, frames } = fbank(pcm); // data.length === frames * 80
 */
export function fbank(pcm: Float32Array): { data: Float32Array; frames: number } {
  const frames = pcm.length < FRAME ? 0 : 1 + Math.floor((pcm.length - FRAME) / SHIFT);
  const data = new Float32Array(frames * FBANK_BINS);
  const fft = new FFT(PADDED);
  const input = new Array<number>(PADDED).fill(0);
  const spectrum = fft.createComplexArray() as number[];
  const power = new Float32Array(PADDED / 2);
  for (let f = 0; f < frames; f++) {
    const at = f * SHIFT;
    let mean = 0;
    for (let n = 0; n < FRAME; n++) mean += pcm[at + n]!;
    mean /= FRAME;
    // Pre-emphasis runs backwards so each sample still sees its unchanged predecessor (the first sees itself).
    for (let n = FRAME - 1; n >= 0; n--) {
      const x = (pcm[at + n]! - mean) * INT16;
      const before = n > 0 ? (pcm[at + n - 1]! - mean) * INT16 : x;
      input[n] = (x - PREEMPHASIS * before) * HAMMING[n]!;
    }
    fft.realTransform(spectrum, input);
    for (let k = 0; k < PADDED / 2; k++) power[k] = spectrum[2 * k]! ** 2 + spectrum[2 * k + 1]! ** 2;
    for (let b = 0; b < FBANK_BINS; b++) {
      const weights = FILTERS[b]!;
      let energy = 0;
      for (let k = 0; k < PADDED / 2; k++) energy += weights[k]! * power[k]!;
      data[f * FBANK_BINS + b] = Math.log(Math.max(energy, EPSILON));
    }
  }
  for (let b = 0; b < FBANK_BINS && frames > 0; b++) {
    let mean = 0;
    for (let f = 0; f < frames; f++) mean += data[f * FBANK_BINS + b]!;
    mean /= frames;
    for (let f = 0; f < frames; f++) data[f * FBANK_BINS + b]! -= mean;
  }
  return { data, frames };
}
