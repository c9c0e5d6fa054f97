/**
 * A delivery as JSON lines: the analysis is sent (and kept until its task takes it) in lines of about a
 * megabyte, so the server reads, checks and writes it line by line and never parses one huge JSON text on
 * its request thread. The first line is the delivery itself (`{"worker", "files", "analysis"}`) with its long
 * lists cut short; each further line adds items to one list: `{"add": "<list>", "items": […]}`, where the
 * list is `transcript`, `screenText`, `visual`, `episodes`, `episodes.<n>.audio`, `episodes.<n>.visual`,
 * `subtitleTracks`, `subtitleTracks.<n>.segments`, `passageVectors.items`, `frameVectors.items`,
 * `framePrints` or `faces` (`<n>`: the position in its list, counted from 0). A delivery in one JSON
 * object is the same with no further lines.
 */
import type { StoredAnalysis } from '../../analysis/cache.js';

/** About how long a line the writer makes (characters of JSON); one item longer than that is a line of its own. */
export const LINE_TARGET = 1 << 20;

/** The longest line a reader takes (bytes): the first line holds a video's frame sequence (up to about 7.3 MB for 12 hours). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** The lists a line may add to, as their paths in the analysis. */
export const LIST_PATH = /^(transcript|screenText|visual|episodes|subtitleTracks|framePrints|faces|passageVectors\.items|frameVectors\.items|episodes\.(\d{1,5})\.(audio|visual)|subtitleTracks\.(\d{1,5})\.segments)$/;

/** What a delivery says besides its analysis. */
export interface DeliveryHead {
  worker: string;
  files: string[];
}

/** A line that adds items to one list of the analysis. */
export interface AddLine {
  add: string;
  items: unknown[];
}

type Lists = Record<string, unknown[] | undefined>;

/**
 * The list a path names in an analysis, or undefined when it names none (an episode or track that is not
 * there, a vector set that is null).
 * @example
 * listAt(analysis, 'episodes.0.audio'); // analysis.episodes[0].audio
 */
export function listAt(analysis: StoredAnalysis, path: string): unknown[] | undefined {
  const m = LIST_PATH.exec(path);
  if (!m) return undefined;
  const at = (owner: unknown, key: string): unknown[] | undefined => {
    const list = owner && typeof owner === 'object' ? (owner as Lists)[key] : undefined;
    return Array.isArray(list) ? list : undefined;
  };
  if (m[2] !== undefined) return at(analysis.episodes[Number(m[2])], m[3]);
  if (m[4] !== undefined) return at(analysis.subtitleTracks?.[Number(m[4])], 'segments');
  const [first, second] = path.split('.');
  return second ? at((analysis as unknown as Record<string, unknown>)[first], second) : at(analysis, first);
}

/** JSON lines adding `items` to `path`, about `target` characters each. */
function* addLines(path: string, items: readonly unknown[], target: number): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  const line = () => `{"add":${JSON.stringify(path)},"items":[${parts.join(',')}]}`;
  for (const item of items) {
    const json = JSON.stringify(item);
    if (parts.length > 0 && size + json.length > target) {
      yield line();
      parts = [];
      size = 0;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) yield line();
}

/**
 * The lines of a delivery: its head with the analysis's long lists cut short, then the lists' items. An
 * episode (or subtitle track) small enough goes whole into its list's line; a larger one's lines follow it.
 * @example
 * for (const line of deliveryLines({ worker: 'desk-1', files: ['ep-0.jpg'] }, wire)) out.write(`${line}\n`);
 */
export function* deliveryLines(head: DeliveryHead, a: StoredAnalysis, target = LINE_TARGET): Generator<string> {
  const emptyVectors = (v: StoredAnalysis['passageVectors']) => v && { ...v, items: [] };
  const first = {
    ...a,
    transcript: [], screenText: [], visual: [], episodes: [],
    ...(a.subtitleTracks ? { subtitleTracks: [] } : {}),
    ...(a.framePrints ? { framePrints: [] } : {}),
    ...(a.faces ? { faces: [] } : {}),
    passageVectors: emptyVectors(a.passageVectors),
    frameVectors: emptyVectors(a.frameVectors),
  };
  yield JSON.stringify({ worker: head.worker, files: head.files, analysis: first });
  yield* addLines('transcript', a.transcript, target);
  yield* addLines('screenText', a.screenText, target);
  yield* addLines('visual', a.visual, target);
  yield* nestedLines('episodes', a.episodes, ['audio', 'visual'], target);
  yield* nestedLines('subtitleTracks', a.subtitleTracks ?? [], ['segments'], target);
  yield* addLines('framePrints', a.framePrints ?? [], target);
  yield* addLines('faces', a.faces ?? [], target);
  yield* addLines('passageVectors.items', a.passageVectors?.items ?? [], target);
  yield* addLines('frameVectors.items', a.frameVectors?.items ?? [], target);
}

/** A list whose entries hold lists of their own: small entries go whole, a large one's inner lists follow it. */
function* nestedLines(path: string, entries: readonly object[], inner: string[], target: number): Generator<string> {
  const whole: object[] = [];
  const flush = function* () {
    yield* addLines(path, whole, target);
    whole.length = 0;
  };
  for (const [n, entry] of entries.entries()) {
    const lists = entry as Lists;
    const size = inner.reduce((sum, k) => sum + (lists[k]?.length ?? 0), 0);
    // A rough bound first: most entries are far below the target and are not measured.
    if (size < 64 || JSON.stringify(entry).length <= target) {
      whole.push(entry);
      continue;
    }
    whole.push({ ...entry, ...Object.fromEntries(inner.map((k) => [k, []])) });
    yield* flush();
    for (const k of inner) yield* addLines(`${path}.${n}.${k}`, lists[k] ?? [], target);
  }
  yield* flush();
}

/**
 * Adds a line's items to the analysis being put together (a delivery read back from its file, whose lines
 * were checked when they came in). Throws on a path that names no list.
 * @example
 * const analysis = first.analysis;
 * addItems(analysis, { add: 'transcript', items: [{ start: 0, end: 1, text: 'hi' }] });
 */
export function addItems(analysis: StoredAnalysis, line: AddLine): void {
  const list = listAt(analysis, line.add);
  if (!list) throw new Error(`a delivery line adds to "${line.add}", which names no list of its analysis`);
  for (const item of line.items) list.push(item);
}
