/**
 * Ink and background of a line crop, read from the recogniser's normalised tensor: used to find word gaps
 * and to draw clean line images for Tesseract.
 */

/** Grey levels (on the tensor's -1..1 scale) text and background must differ by to be told apart. */
const MIN_CONTRAST = 0.3;

/**
 * The grey levels (-1..1) of one slot of the recogniser's BGR tensor, `outW` columns wide.
 * @example
 * const grey = greyOf(tensor, 0, 48, tensorW, outW); // grey[y * outW + x]
 */
export function greyOf(tensor: Float32Array, slot: number, outH: number, tensorW: number, outW: number): Float32Array {
  const plane = outH * tensorW;
  const base = slot * 3 * plane;
  const grey = new Float32Array(outH * outW);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const o = base + y * tensorW + x;
      grey[y * outW + x] = (tensor[o] + tensor[o + plane] + tensor[o + 2 * plane]) / 3;
    }
  }
  return grey;
}

/**
 * Which grey levels of a line crop are ink: Otsu's split, the background being the class that holds most
 * of the border. `null` when the crop is too small or its two classes too close to tell apart.
 * @example
 * const ink = inkTest(grey, outW, 48); if (ink?.(grey[0])) …
 */
export function inkTest(grey: Float32Array, width: number, height: number): ((v: number) => boolean) | null {
  if (width < 3 || height < 3) return null;
  const split = otsu(grey);
  if (!split || split.high - split.low < MIN_CONTRAST) return null;
  let borderHigh = 0;
  let border = 0;
  const count = (v: number) => {
    border++;
    if (v > split.threshold) borderHigh++;
  };
  for (let x = 0; x < width; x++) {
    count(grey[x]);
    count(grey[(height - 1) * width + x]);
  }
  for (let y = 1; y < height - 1; y++) {
    count(grey[y * width]);
    count(grey[y * width + width - 1]);
  }
  const inkIsHigh = borderHigh * 2 < border;
  return (v) => (v > split.threshold) === inkIsHigh;
}

/** Otsu's threshold over values in -1..1 (64 bins), with the mean of each side. */
function otsu(values: Float32Array): { threshold: number; low: number; high: number } | null {
  const bins = 64;
  const hist = new Float64Array(bins);
  const binOf = (v: number) => Math.min(bins - 1, Math.max(0, Math.floor(((v + 1) / 2) * bins)));
  for (const v of values) hist[binOf(v)]++;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < bins; i++) sumAll += i * hist[i];
  let wLow = 0;
  let sumLow = 0;
  let best = -1;
  let bestI = -1;
  for (let i = 0; i < bins - 1; i++) {
    wLow += hist[i];
    sumLow += i * hist[i];
    const wHigh = total - wLow;
    if (wLow === 0 || wHigh === 0) continue;
    const mLow = sumLow / wLow;
    const mHigh = (sumAll - sumLow) / wHigh;
    const between = wLow * wHigh * (mLow - mHigh) ** 2;
    if (between > best) {
      best = between;
      bestI = i;
    }
  }
  if (bestI < 0) return null;
  let wl = 0, sl = 0, wh = 0, sh = 0;
  for (let i = 0; i < bins; i++) {
    if (i <= bestI) {
      wl += hist[i];
      sl += i * hist[i];
    } else {
      wh += hist[i];
      sh += i * hist[i];
    }
  }
  const toValue = (bin: number) => ((bin + 0.5) / bins) * 2 - 1;
  return { threshold: ((bestI + 1) / bins) * 2 - 1, low: toValue(sl / wl), high: toValue(sh / wh) };
}
