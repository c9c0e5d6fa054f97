// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included, has nothing to fold.
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Lower case, diacritics removed, ß as ss: the form words and names are compared in outside SQLite
 * (search words, place names).
 * @example
 * fold('Müller-Straße'); // 'muller-strasse'
 */
export function fold(text: string): string {
  // Most text is ASCII, which has nothing to decompose: Unicode normalisation was a search's largest cost.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}
