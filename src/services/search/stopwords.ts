/**
 * Words too common to find anything with, English and German. They are dropped from queries (unless a
 * query has nothing else) and from the trigram table, where they would only make posting lists long.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    // English
    'a an and are as at be been but by can could did do does for from had has have he her his i if in into is it its ' +
    'me my of on or our she so than that the their them then there these they this those to too us was we were what ' +
    'when where which who whom why will with would you your ' +
    // German
    'aber als am auch auf aus bei bin bis bist da dann das dass dem den der des die dir doch du ein eine einem einen ' +
    'einer eines er es für hat hatte ich ihr im in ist ja kein mich mir mit nach nicht noch nur oder sich sie sind so ' +
    'um und uns von vor war wie wir wird zu zum zur über'
  ).split(' '),
);

/**
 * Whether a lower-cased word is a stopword.
 * @example
 * isStopword('the'); // true
 * isStopword('penalty'); // false
 */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
