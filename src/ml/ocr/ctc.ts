/**
 * A decoded line: text plus the mean probability of its characters.
 * @example
 * const r: CtcResult = { text: 'Hello', confidence: 0.97 };
 */
export interface CtcResult {
  text: string;
  confidence: number;
}

/**
 * Greedy CTC decoding of one `[steps, classes]` probability matrix: best class per step, repeats
 * collapsed, blanks (class 0) dropped. Confidence is the mean best probability of the kept steps.
 * @example
 * ctcGreedy(probs, 40, 6625, charset); // { text: 'Hello', confidence: 0.97 }
 */
export function ctcGreedy(probs: Float32Array, steps: number, classes: number, charset: string[], offset = 0): CtcResult {
  let text = '';
  let sum = 0;
  let kept = 0;
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
      text += charset[best] ?? '';
      sum += bestP;
      kept++;
    }
    previous = best;
  }
  return { text, confidence: kept > 0 ? sum / kept : 0 };
}
