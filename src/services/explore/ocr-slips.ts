import { distance } from 'fastest-levenshtein';
import { BKTree } from 'mnemonist';
import { fold } from '../../tools/fold.js';
import { words } from '../../tools/normalise.js';
import { mayBeSlipOf } from '../../tools/ocr-slip.js';

/** What one document (an episode, a search hit) shows on screen and says or is tagged with, and whose it is. */
export interface SourcedText {
  /** On-screen text, read by OCR. */
  shown: string;
  /** What is said (transcript) and tagged: words no OCR read. */
  other: string;
  /** The item it belongs to; a copy's is its original's, so copies count as one item. */
  item: string;
}

/** How a lower-cased word was read across the documents. */
interface Reading {
  items: Set<string>;
  /** Said or tagged somewhere, so not only OCR's reading. */
  heard: boolean;
}

const LETTERS = /^\p{L}+$/u;

function readings(docs: SourcedText[]): Map<string, Reading> {
  const out = new Map<string, Reading>();
  const note = (text: string, item: string, heard: boolean) => {
    for (const w of words(text.toLowerCase())) {
      if (!LETTERS.test(w)) continue;
      const r = out.get(w) ?? { items: new Set<string>(), heard: false };
      r.items.add(item);
      r.heard ||= heard;
      out.set(w, r);
    }
  };
  for (const d of docs) {
    note(d.shown, d.item, false);
    note(d.other, d.item, true);
  }
  return out;
}

/**
 * Whether `better` is read more surely than `slip` (read on screen in one item only): said or tagged, read in
 * more items, or carrying the diacritics `slip` lacks (OCR drops umlauts, it does not add them).
 */
function betterRead(better: Reading, word: string, slip: string): boolean {
  return better.heard || better.items.size > 1 || (fold(word) === slip && word !== slip);
}

/**
 * The OCR slips among documents' words (lower-cased): a word read on screen in one item only, never said
 * or tagged, that may be a better-read word of the documents with one slip ({@link mayBeSlipOf}: "konigssee"
 * beside a "Königssee" said in the subtitles or shown in other items). Two words read once each, one letter
 * apart, are both kept: neither is known to be the better reading.
 * @example
 * ocrSlips([{ shown: 'Konigssee', other: '', item: 'a' }, { shown: '', other: 'The Königssee at dawn.', item: 'b' }]); // Set { 'konigssee' }
 */
export function ocrSlips(docs: SourcedText[]): Set<string> {
  const read = readings(docs);
  const candidates = [...read].filter(([, r]) => !r.heard && r.items.size === 1).map(([w]) => w);
  if (candidates.length === 0) return new Set();
  const all = [...read.keys()];
  // A BK-tree finds the words one edit away without comparing every pair; diacritics are matched by their folded form.
  const tree = BKTree.from(all, distance);
  const byFold = new Map<string, string[]>();
  for (const w of all) {
    const key = fold(w);
    if (key !== w) byFold.set(key, [...(byFold.get(key) ?? []), w]);
  }
  const slips = new Set<string>();
  for (const slip of candidates) {
    const near = [...tree.search(1, slip).map((m) => m.item), ...(byFold.get(fold(slip)) ?? [])];
    if (near.some((w) => mayBeSlipOf(slip, w) && betterRead(read.get(w)!, w, slip))) slips.add(slip);
  }
  return slips;
}
