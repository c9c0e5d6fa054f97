/**
 * What a search's words say besides words: a date (date-words.ts) and a place the collection's items were
 * recorded at, each becoming a filter; the words left are searched as text. "Wien im Sommer 2023" is items
 * near Vienna from 1 June to 31 August 2023, with no words left; "Oma 2021" is "Oma" in 2021.
 */
import type { NearFilter } from '../../store/item-filter.js';
import { fold } from '../../tools/fold.js';
import { COMPOUND } from '../../tools/normalise.js';
import { isStopword } from '../../tools/stopwords.js';
import { daysSaid } from './date-words.js';
import { parseQuery } from './query.js';

/**
 * What was understood in a query (POST /search `understood`): the place as typed, the days (inclusive, on the
 * server's calendar) and the words left, searched as text ('' when none).
 */
export interface Understood {
  place: string | null;
  from: string | null;
  to: string | null;
  words: string;
}

/** What was understood, with the place's filter. */
export interface QueryReading {
  understood: Understood;
  near: NearFilter | null;
}

/** The places a query may name: the collection's own. */
export interface PlaceLookup {
  /** The folded words of the collection's places (ItemRepository.placeWords): only these start a look-up. */
  words: ReadonlySet<string>;
  /** The `near` filter of a name when items of the collection were recorded there; null otherwise. */
  filterOf(name: string): Promise<NearFilter | null>;
}

/** The longest place name tried, in words ("Rio de Janeiro"). */
const MAX_PLACE_WORDS = 3;

/** Words that only tie a place or a date to the sentence ("in Lisbon", "im Sommer"): they go with it. */
const TIES = new Set(['in', 'im', 'at', 'on', 'from', 'during', 'since', 'of', 'aus', 'von', 'vom', 'am', 'an', 'seit', 'während', 'um', 'zu']);

interface Token {
  text: string;
  start: number;
  end: number;
}

const tokensOf = (query: string): Token[] => [...query.matchAll(COMPOUND)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));

/** Runs of 1–3 adjacent tokens outside `taken`, longest first, then from the left. */
function placeCandidates(query: string, tokens: Token[], taken: { start: number; end: number } | null): Token[] {
  const out: Token[] = [];
  for (let n = Math.min(MAX_PLACE_WORDS, tokens.length); n >= 1; n--) {
    for (let i = 0; i + n <= tokens.length; i++) {
      const run = tokens.slice(i, i + n);
      const first = run[0]!, last = run[n - 1]!;
      if (taken && first.start < taken.end && taken.start < last.end) continue;
      if (run.some((t, k) => k > 0 && query.slice(run[k - 1]!.end, t.start).trim() !== '')) continue;
      if (isStopword(first.text.toLowerCase()) || isStopword(last.text.toLowerCase())) continue;
      out.push({ text: query.slice(first.start, last.end), start: first.start, end: last.end });
    }
  }
  return out;
}

/** The first place of the collection the query names, with its filter. */
async function placeSaid(query: string, tokens: Token[], taken: { start: number; end: number } | null, places: PlaceLookup): Promise<(Token & { near: NearFilter }) | null> {
  for (const c of placeCandidates(query, tokens, taken)) {
    if (!c.text.split(/\s+/).every((w) => places.words.has(fold(w)))) continue;
    const near = await places.filterOf(c.text);
    if (near) return { ...c, near };
  }
  return null;
}

/** The query without the understood spans and the ties just before them; '' when nothing searchable is left. */
function wordsLeft(query: string, tokens: Token[], spans: { start: number; end: number }[]): string {
  const cut = spans.flatMap((s) => {
    const tie = tokens.filter((t) => t.end <= s.start && query.slice(t.end, s.start).trim() === '').at(-1);
    return tie && TIES.has(tie.text.toLowerCase()) ? [{ start: tie.start, end: s.end }] : [s];
  });
  let left = '';
  let at = 0;
  for (const s of cut.sort((a, b) => a.start - b.start)) {
    left += `${query.slice(at, s.start)} `;
    at = Math.max(at, s.end);
  }
  left = `${left}${query.slice(at)}`.replace(/\s+/g, ' ').trim();
  const q = parseQuery(left);
  return q.all === null ? '' : left;
}

/**
 * Reads a date and a place of the collection in a query; null when it says neither. Relative dates count from
 * `now` on the server's calendar; without `places` only dates are read.
 * @example
 * await readQuery('Lisbon 2019', new Date(), places);
 * // { understood: { place: 'Lisbon', from: '2019-01-01', to: '2019-12-31', words: '' }, near: { kind: 'point', … } }
 */
export async function readQuery(query: string, now: Date, places: PlaceLookup | null): Promise<QueryReading | null> {
  // A "quoted phrase" is words as typed: nothing in it is read, and the offsets stay those of the query.
  const open = query.replace(/"[^"]*"/g, (quoted) => ' '.repeat(quoted.length));
  const tokens = tokensOf(query);
  const days = daysSaid(open, now);
  const place = places ? await placeSaid(open, tokensOf(open), days, places) : null;
  if (!days && !place) return null;
  const words = wordsLeft(query, tokens, [days, place].filter((s): s is NonNullable<typeof s> => s !== null));
  return { understood: { place: place?.text ?? null, from: days?.from ?? null, to: days?.to ?? null, words }, near: place?.near ?? null };
}
