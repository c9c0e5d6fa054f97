/**
 * The judged queries, written as a person searching their own archive would type them, with the moments
 * that person would expect (2 = the moment meant, 1 = also fine). Judged from the corpus text alone, not
 * from any ranking's output.
 *
 * No-answer queries ask for things the collection does not hold: none of their words, nor a word within
 * two edits of one, occurs in any title, line or slide (checked when the set loads).
 */
import { CORPUS } from './corpus.js';
import type { Grade, JudgedMoment, JudgedQuery, MediaSpec, QueryKind } from './types.js';

/**
 * The judged moment of `mediaId` whose line or slide contains `snippet` (exactly one must).
 * @example
 * moment('apple-cake', 'famous apple cake', 2); // { media_id: 'apple-cake', start: 5.5, end: 9.5, grade: 2, text: … }
 */
export function moment(mediaId: string, snippet: string, grade: Grade, corpus: MediaSpec[] = CORPUS): JudgedMoment {
  const media = corpus.find((m) => m.id === mediaId);
  if (!media) throw new Error(`judged set: no medium ${mediaId}`);
  const found = [...media.lines, ...media.slides].filter((l) => l.text.includes(snippet));
  if (found.length !== 1) throw new Error(`judged set: "${snippet}" is in ${found.length} lines of ${mediaId}, not one`);
  const [l] = found;
  return { media_id: mediaId, start: l.start, end: l.end, grade, text: l.text };
}

const q = (kind: QueryKind, language: 'en' | 'de', query: string, ...moments: JudgedMoment[]): JudgedQuery => ({ query, kind, language, moments });

/**
 * Every judged query of the benchmark.
 * @example
 * QUERIES.filter((x) => x.kind === 'no-answer').length; // 4
 */
export const QUERIES: JudgedQuery[] = [
  // The title names every moment of the item: the line that says it must come first.
  q('titles', 'en', 'apple cake', moment('apple-cake', 'famous apple cake', 2), moment('apple-cake', 'apple slices', 1)),
  q('titles', 'en', 'bread baking', moment('bread-grandpa', 'sourdough bread', 2), moment('bread-grandpa', 'bread bakes', 2)),
  q('titles', 'en', 'kitchen table', moment('kitchen-table', 'build a kitchen table', 2), moment('kitchen-table', 'into the kitchen', 1)),
  q('titles', 'de', 'Wanderung Gipfel', moment('wanderung', 'Gipfel', 2)),
  q('titles', 'de', 'Apfelkuchen Ofen', moment('omas-apfelkuchen', 'Ofen', 2)),

  // The lecture: a part by its number, alone and with the word "part".
  q('lecture', 'en', 'part 77', moment('lecture', 'part 77 ', 2)),
  q('lecture', 'en', '77', moment('lecture', 'part 77 ', 2)),
  q('lecture', 'en', 'part 3', moment('lecture', 'part 3 ', 2)),
  q('lecture', 'en', 'part 118', moment('lecture', 'part 118 ', 2)),

  // Several words: one line holds all of them, other lines some.
  q('multi-word', 'en', 'coins in Prague', moment('lecture', 'coins in Prague', 2)),
  q('multi-word', 'en', 'bridges Hamburg', moment('lecture', 'bridges in Hamburg', 2)),
  q('multi-word', 'en', 'chocolate cake with strawberries', moment('emma-birthday', 'chocolate cake', 2)),
  q('multi-word', 'en', 'flour water salt', moment('bread-grandpa', 'flour, water and salt', 2), moment('apple-cake', 'flour goes in', 1)),
  q('multi-word', 'de', 'Reifen wieder aufpumpen', moment('fahrrad', 'pumpe ich', 2)),
  q('multi-word', 'de', 'Butter Zucker Mehl', moment('omas-apfelkuchen', 'Butter, Zucker und Mehl', 2)),

  // Exact phrases in quotes.
  q('phrase', 'en', '"musical chairs"', moment('emma-birthday', 'musical chairs', 2)),
  q('phrase', 'en', '"dough rests overnight"', moment('bread-grandpa', 'dough rests overnight', 2)),
  q('phrase', 'en', '"the kitchen smells wonderful"', moment('apple-cake', 'smells wonderful', 2)),
  q('phrase', 'de', '"heiße Suppe"', moment('wanderung', 'heiße Suppe', 2)),

  // English word forms: the query's form differs from the line's.
  q('stems-en', 'en', 'grandpa baking bread', moment('bread-grandpa', 'sourdough bread', 2), moment('bread-grandpa', 'bread bakes', 1)),
  q('stems-en', 'en', 'clamping the boards', moment('kitchen-table', 'clamped', 2)),
  q('stems-en', 'en', 'blowing out candles', moment('emma-birthday', 'candles', 2)),
  q('stems-en', 'en', 'peeling apples', moment('apple-cake', 'peel and slice', 2)),

  // German word forms.
  q('stems-de', 'de', 'regnet', moment('wanderung', 'regnen', 2)),
  q('stems-de', 'de', 'schönste Wanderung', moment('wanderung', 'Wanderungen', 2)),
  q('stems-de', 'de', 'Regenjacke', moment('wanderung', 'Regenjacken', 2)),
  q('stems-de', 'de', 'Blase', moment('fahrrad', 'Blasen', 2)),

  // German compounds: a query word that is a part of a longer word.
  q('compounds', 'de', 'Kuchen', moment('omas-apfelkuchen', 'Der Kuchen duftet', 2), moment('omas-apfelkuchen', 'Apfelkuchen für', 2)),
  q('compounds', 'de', 'Strudel', moment('wanderung', 'Apfelstrudel', 2)),
  q('compounds', 'de', 'Wasser', moment('fahrrad', 'Wasserbad', 2)),
  q('compounds', 'de', 'Regen', moment('wanderung', 'regnen', 2), moment('wanderung', 'Regenjacken', 1)),

  // Misspelt words.
  q('typos', 'en', 'sandpapper', moment('kitchen-table', 'sandpaper', 2)),
  q('typos', 'en', 'cinamon', moment('apple-cake', 'cinnamon', 2)),
  q('typos', 'de', 'Gemsen', moment('wanderung', 'Gämsen', 2)),
  q('typos', 'de', 'Schlauh', moment('fahrrad', 'Schlauch', 2)),

  // Words only seen on slides.
  q('slides', 'en', 'compost heap', moment('garden-club', 'Compost Heap', 2)),
  q('slides', 'en', 'tomato seedlings', moment('garden-club', 'Tomato', 2)),
  q('slides', 'de', 'Kassenstand', moment('vereinsabend', 'Kassenstand', 2)),
  q('slides', 'de', 'Termine im Sommer', moment('vereinsabend', 'Termine', 2)),

  // Plain one- or two-word queries.
  q('plain', 'en', 'linseed oil', moment('kitchen-table', 'linseed oil', 2)),
  q('plain', 'en', 'sunscreen', moment('beach', 'sunscreen', 2)),
  q('plain', 'en', 'red bicycle', moment('emma-birthday', 'red bicycle', 2)),
  q('plain', 'de', 'Hinterrad', moment('fahrrad', 'Hinterrad', 2)),

  // Nothing in the collection answers these.
  q('no-answer', 'en', 'volcano eruption'),
  q('no-answer', 'en', 'submarine'),
  q('no-answer', 'de', 'Hochzeit'),
  q('no-answer', 'de', 'Weihnachtsmarkt'),
];
