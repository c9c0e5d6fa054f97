/** ISO 639-2 (B and T) codes of common languages → ISO 639-1, for matching container tags to user input. */
const THREE_TO_TWO: Record<string, string> = {
  ara: 'ar', bul: 'bg', cat: 'ca', ces: 'cs', cze: 'cs', chi: 'zh', zho: 'zh', dan: 'da', deu: 'de', ger: 'de',
  ell: 'el', gre: 'el', eng: 'en', spa: 'es', est: 'et', fin: 'fi', fra: 'fr', fre: 'fr', heb: 'he', hin: 'hi',
  hrv: 'hr', hun: 'hu', ind: 'id', ita: 'it', jpn: 'ja', kor: 'ko', lit: 'lt', lav: 'lv', nld: 'nl', dut: 'nl',
  nor: 'no', nob: 'nb', nno: 'nn', pol: 'pl', por: 'pt', ron: 'ro', rum: 'ro', rus: 'ru', slk: 'sk', slo: 'sk',
  slv: 'sl', srp: 'sr', swe: 'sv', tha: 'th', tur: 'tr', ukr: 'uk', vie: 'vi', fas: 'fa', per: 'fa', msa: 'ms',
  may: 'ms', ben: 'bn', tam: 'ta', urd: 'ur', isl: 'is', ice: 'is', gle: 'ga', cym: 'cy', wel: 'cy', eus: 'eu',
  baq: 'eu', glg: 'gl', lat: 'la', epo: 'eo', afr: 'af', swa: 'sw', fil: 'tl', tgl: 'tl',
};

/**
 * Reduces a language tag to a comparable base code: lower-case primary subtag, ISO 639-2 mapped to
 * 639-1 where known. Returns undefined for empty/undetermined tags.
 * @example
 * normalizeLanguage('de-DE'); // 'de'
 * normalizeLanguage('ger');   // 'de'
 * normalizeLanguage('und');   // undefined
 */
export function normalizeLanguage(tag: string | null | undefined): string | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (!primary || primary === 'und' || primary === 'mul' || primary === 'zxx') return undefined;
  return THREE_TO_TWO[primary] ?? primary;
}

/**
 * True when two language tags name the same base language.
 * @example
 * sameLanguage('eng', 'en-US'); // true
 */
export function sameLanguage(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = normalizeLanguage(a);
  return x !== undefined && x === normalizeLanguage(b);
}
