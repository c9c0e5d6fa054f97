/**
 * German letters for PP-OCRv4 output. Its dictionary has no ö, ß, Ä or Ö and it reads ä/ü mostly as a/u,
 * so "Grüße aus München" comes out "GruBe aus Munchen". A second reader that knows German (Tesseract's
 * `deu` model) spells such words right on clean slides but garbles busy ones, where PP-OCRv4 stays steady.
 * So the words stay PP-OCRv4's and only their German letters come from the second reading, word by word,
 * when the two agree on everything else.
 */

const GERMAN = /[äöüÄÖÜß]/;

/** What PP-OCRv4 writes in place of each German letter (seen on rendered slides: "GruBe", "FuSball", "Muinchen"). */
const READ_AS: Record<string, string[]> = {
  ä: ['a', 'ä'],
  ö: ['o', 'ö'],
  ü: ['u', 'ü', 'ui', 'i'],
  Ä: ['A', 'Ä'],
  Ö: ['O', 'Ö'],
  Ü: ['U', 'Ü'],
  ß: ['B', 'S', 's', 'ss', 'b', 'ß'],
};

/**
 * Whether a PP-OCRv4 line may hold a folded German letter worth a second reading: it has one of the umlauts
 * PP-OCRv4 can emit, or a "B" between lower-case letters (its reading of ß).
 * @example
 * mayHoldGermanLetters('StraBe'); // true
 * mayHoldGermanLetters('Quarterly Results'); // false
 */
export function mayHoldGermanLetters(text: string): boolean {
  return GERMAN.test(text) || /\p{Ll}B\p{Ll}/u.test(text);
}

/**
 * PP-OCRv4's line with each word replaced by the second reader's spelling when that spelling holds a German
 * letter and reads the same otherwise (ä for a, ß for B/S/ss, …). Words are matched in order; a word the
 * second reader merged with its neighbour or misread stays as PP-OCRv4 read it.
 * @example
 * mergeGermanLetters('GruBe aus Munchen', 'Grüße aus München'); // 'Grüße aus München'
 * mergeGermanLetters('Apfel und Kase', 'Apfe1 und Käse'); // 'Apfel und Käse'
 */
export function mergeGermanLetters(primary: string, second: string): string {
  const theirs = second.split(/\s+/).map(bare).filter(Boolean);
  let next = 0;
  return primary
    .split(' ')
    .map((word) => {
      const core = bare(word);
      if (!core) return word;
      for (let k = next; k < theirs.length; k++) {
        if (!sameWordFolded(theirs[k], core)) continue;
        next = k + 1;
        return GERMAN.test(theirs[k]) ? word.replace(core, theirs[k]) : word;
      }
      return word;
    })
    .join(' ');
}

/**
 * Without a second reader: a "B" between lower-case letters becomes ß, which PP-OCRv4 cannot emit and German
 * words do not otherwise contain ("StraBe" → "Straße"). Umlauts are left folded; search folds them anyway.
 * @example
 * guessEszett('FuBball am GroBen See'); // 'Fußball am Großen See'
 */
export function guessEszett(text: string): string {
  return text.replace(/(?<=\p{Ll})B(?=\p{Ll})/gu, 'ß');
}

/** A word without leading or trailing punctuation. */
function bare(word: string): string {
  return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** Whether `candidate` (with German letters) is what PP-OCRv4 would have written as `read`. */
function sameWordFolded(candidate: string, read: string): boolean {
  const pattern = [...candidate].map((c) => `(?:${(READ_AS[c] ?? [c]).map(escapeRegex).join('|')})`).join('');
  return new RegExp(`^${pattern}$`, 'u').test(read);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
