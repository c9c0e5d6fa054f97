/**
 * Which of an analysis's item-wide lines each episode holds, as the search index files them: an on-screen
 * text entry goes with every episode it mostly lies in (`belongsTo`), a line of another subtitle track
 * with the one episode it overlaps most (`owningSpans`). For episodes in time order (the pipeline makes
 * them one after another) a binary search finds the few episodes a line overlaps; episodes in any other
 * order are compared with every line, as before. Both in slices that let requests in.
 */
import { belongsTo, owningSpans, type Span } from '../../analysis/spans.js';
import { lastStartingBy } from '../../tools/time-spans.js';
import type { SubtitleTrack, TimedText } from '../../analysis/types.js';
import { runInSlices, type TimeSlices } from '../../tools/time-slices.js';

/** A line of another subtitle track (another language than the transcript's), in the episode it belongs to. */
export interface OtherLine {
  language: string;
  /** Its place among the lines of its track in its episode. */
  seq: number;
  start: number;
  end: number;
  text: string;
}

/** What episode-lines needs of an analysis (a MediaAnalysis, or one as JSON). */
export interface LinesSource {
  episodes: readonly (Span & { index: number })[];
  screenText: readonly TimedText[];
  subtitleTracks?: readonly SubtitleTrack[];
}

/** Each episode's lines, by its position in `episodes`. */
export interface EpisodeLines {
  screen: TimedText[][];
  others: OtherLine[][];
}

/** Thrown when the lines overlap more episodes, all together, than `maxPairs` allows. */
export class TooManyOverlaps extends Error {
  constructor(readonly list: 'screenText' | 'subtitleTracks') {
    super(`the lines of ${list} lie in too many episodes at once`);
  }
}

/**
 * Whether spans are in time order: starts and ends both never go back (they may overlap). Then the spans a
 * line overlaps are a run of neighbours, found by a binary search.
 * @example
 * inTimeOrder([{ start: 0, end: 8 }, { start: 8, end: 20 }]); // true
 */
export function inTimeOrder(spans: readonly Span[]): boolean {
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    if (!(s.start <= s.end)) return false;
    if (i > 0 && (s.start < spans[i - 1]!.start || s.end < spans[i - 1]!.end)) return false;
  }
  return true;
}

/**
 * The first span in time order whose end lies after `t` (spans.length when none does).
 * @example
 * firstEndingAfter([{ start: 0, end: 8 }, { start: 8, end: 20 }], 8); // 1
 */
export function firstEndingAfter(spans: readonly Span[], t: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.end > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Counts the pairs of line and episode looked at, and stops past the allowed number. */
class PairBudget {
  private used = 0;
  constructor(private readonly max: number) {}
  spend(n: number, list: 'screenText' | 'subtitleTracks'): void {
    this.used += n;
    if (this.used > this.max) throw new TooManyOverlaps(list);
  }
}

/**
 * The episode `x` belongs to, as owningSpans says it, for spans in time order: only the spans it overlaps
 * are looked at (a binary search finds the first).
 */
function owningSpanInOrder(x: Span, spans: readonly Span[], budget: PairBudget): number {
  const lo = firstEndingAfter(spans, x.start);
  let best = -1;
  let bestShared = 0;
  let i = lo;
  for (; i < spans.length && spans[i]!.start < x.end; i++) {
    const s = spans[i]!;
    const shared = Math.min(x.end, s.end) - Math.max(x.start, s.start);
    if (shared > bestShared) {
      bestShared = shared;
      best = i;
    }
  }
  budget.spend(i - lo + 1, 'subtitleTracks');
  if (best >= 0) return best;
  // As owningSpans: the span its start lies in (the last one takes what starts after it), else the nearest end.
  const p = lastStartingBy(spans, x.start);
  if (lo <= p) return lo;
  if (p === spans.length - 1 && p >= 0) return p;
  return x.start < (spans[0]?.start ?? 0) ? 0 : spans.length - 1;
}

/** The episode `x` belongs to, among episodes in no order: each is looked at (owningSpans). */
function owningSpanOfAll(x: Span, spans: readonly Span[], budget: PairBudget): number {
  budget.spend(spans.length, 'subtitleTracks');
  return owningSpans([x], spans)[0]!;
}

/**
 * Each episode's screen-text entries and other-track lines. With `maxPairs`, throws TooManyOverlaps once
 * more pairs of line and episode than that were looked at (a delivery whose lines each span thousands of
 * episodes); without, looks at all.
 * @example
 * const { screen, others } = await episodeLines(analysis, new TimeSlices());
 * screen[0]; // the on-screen text of the first episode
 */
export function episodeLines(a: LinesSource, slices: TimeSlices, maxPairs = Number.POSITIVE_INFINITY): Promise<EpisodeLines> {
  return runInSlices(episodeLineSteps(a, maxPairs), slices);
}

/**
 * {@link episodeLines} as steps, one line (or, for episodes in no order, one episode) at a time.
 * @example
 * const { screen } = runAll(episodeLineSteps(analysis));
 */
export function* episodeLineSteps(a: LinesSource, maxPairs = Number.POSITIVE_INFINITY): Generator<void, EpisodeLines> {
  const episodes = a.episodes;
  const screen: TimedText[][] = episodes.map(() => []);
  const others: OtherLine[][] = episodes.map(() => []);
  const budget = new PairBudget(maxPairs);
  const ordered = inTimeOrder(episodes);
  if (ordered) {
    for (const t of a.screenText) {
      const lo = firstEndingAfter(episodes, t.start);
      let i = lo;
      for (; i < episodes.length && episodes[i]!.start < t.end; i++) if (belongsTo(t, episodes[i]!)) screen[i]!.push(t);
      budget.spend(i - lo + 1, 'screenText');
      yield;
    }
  } else {
    for (const [i, e] of episodes.entries()) {
      budget.spend(a.screenText.length, 'screenText');
      screen[i] = a.screenText.filter((t) => belongsTo(t, e));
      yield;
    }
  }
  for (const track of a.subtitleTracks ?? []) {
    const count = new Map<number, number>();
    for (const line of track.segments) {
      const at = ordered ? owningSpanInOrder(line, episodes, budget) : owningSpanOfAll(line, episodes, budget);
      if (episodes[at] && line.text.trim()) {
        const seq = count.get(at) ?? 0;
        count.set(at, seq + 1);
        others[at]!.push({ language: track.language, seq, start: line.start, end: line.end, text: line.text });
      }
      yield;
    }
  }
  return { screen, others };
}
