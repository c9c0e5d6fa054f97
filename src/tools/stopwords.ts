/**
 * Stop words of English and German, in one place. The query list holds words too common to find anything
 * with: they are dropped from queries (unless a query has nothing else) and from the trigram table, where
 * they would only make posting lists long. Fillers are words that carry no topic either but may be worth
 * matching in a query ("not", "über"…): summaries, episode cuts and topic labels skip them as well.
 */
import type { Lang } from '../messages/index.js';

const QUERY = {
  en:
    'a an and are as at be been but by can could did do does for from had has have he her his i if in into is it its ' +
    'me my of on or our she so than that the their them then there these they this those to too us was we were what ' +
    'when where which who whom why will with would you your',
  de:
    'aber als am auch auf aus bei bin bis bist da dann das dass dem den der des die dir doch du ein eine einem einen ' +
    'einer eines er es für hat hatte ich ihr im in ist ja kein mich mir mit nach nicht noch nur oder sich sie sind so ' +
    'um und uns von vor war wie wir wird zu zum zur über',
};
const FILLERS = {
  en:
    'about after all also any because before both each few here how just more most no not oh ok okay one other out ' +
    'over own same should some such through under until up very while yes',
  de: 'alle also damit dies diese dieser dort durch etwas hab habe hier ihm ihn jetzt kann mal man muss nun ob ohne schon sehr sein unter vom weil wenn wer',
};

const split = (s: string): string[] => s.split(' ');

/** Query stop words of both languages. */
export const STOPWORDS: ReadonlySet<string> = new Set([...split(QUERY.en), ...split(QUERY.de)]);

/** Words without meaning of their own (query stop words and fillers), per language. */
export const NON_CONTENT: Readonly<Record<Lang, ReadonlySet<string>>> = {
  en: new Set([...split(QUERY.en), ...split(FILLERS.en)]),
  de: new Set([...split(QUERY.de), ...split(FILLERS.de)]),
};

/**
 * Whether a lower-cased word is a stopword.
 * @example
 * isStopword('the'); // true
 * isStopword('penalty'); // false
 */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
