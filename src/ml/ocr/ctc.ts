/**
 * A decoded line: text, the mean probability of its characters, and where each character was read.
 * @example
 * const r: CtcResult = { text: 'Hi', confidence: 0.97, chars: [{ char: 'H', step: 3 }, { char: 'i', step: 6 }] };
 */
export interface CtcResult {
  text: string;
  confidence: number;
  /** Each emitted character with the time step (input column / step width) of its first frame. */
  chars: { char: string; step: number }[];
}

/**
 * Greedy CTC decoding of one `[steps, classes]` probability matrix: best class per step, repeats
 * collapsed, blanks (class 0) dropped. Confidence is the mean best probability of the kept steps.
 * @example
 * ctcGreedy(probs, 40, 6625, charset); // { text: 'Hello', confidence: 0.97, chars: [...] }
 */
export function ctcGreedy(probs: Float32Array, steps: number, classes: number, charset: string[], offset = 0): CtcResult {
  const chars: CtcResult['chars'] = [];
  let sum = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = probs[row];
    for (let c = 1; c < classes; c++) {
      const p = probs[row + c];
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      chars.push({ char: charset[best] ?? '', step: t });
      sum += bestP;
    }
    previous = best;
  }
  return { text: chars.map((c) => c.char).join(''), confidence: chars.length > 0 ? sum / chars.length : 0, chars };
}
