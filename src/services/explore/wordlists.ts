/**
 * Words that never begin or end a topic phrase, per language, beyond the stop words of search/stopwords.ts:
 * determiners and pronouns of every form, adverbs (German ones a sentence or caption capitalises: "Oben", "Hoch"),
 * number words, units, adverbs that open sentences, and common verb forms
 * that speech-to-text puts in front of nouns ("Tomatoes need water", "Kuchen kommt"). German lists are kept
 * folded (ä→ae, ö→oe, ü→ue, ß→ss), so "für" and its ASCII spelling "fuer" are one entry.
 */
import { isContentWord } from '../../analysis/text-stats.js';
import type { Lang } from '../../messages/index.js';

const list = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/));

const FUNCTION = {
  en: list(`
    a an the this that these those every each either neither another any some all both few many much more most
    lot lots other such own same no none nor not only even still just also too very quite rather really almost
    now then again always never often ever soon later already yet once here there today tonight tomorrow yesterday
    maybe perhaps actually probably please thanks thank hello hi hey bye yeah yes yep okay ok oh well right sure
    something anything everything nothing someone anyone everyone nobody somebody anybody everybody thing things
    stuff way kind sort bit
    i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its itself
    we us our ours ourselves they them their theirs themselves one ones who whom whose which what whatever
    about above across after against along among around as at before behind below beneath beside besides between
    beyond by despite down during except for from in inside into like near of off on onto out outside over past
    per since through throughout till to toward towards under underneath until up upon via with within without
    and or but so because if unless although though while whereas whether than
    am is are was were be been being do does did done doing have has had having shall should will would can could
    may might must ought cannot let lets`),
  de: list(`
    der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner keines
    dieser diese dieses diesem diesen jener jene jenes jenem jenen jeder jede jedes jedem jeden welcher welche
    welches welchem welchen alle alles allem allen aller beide beiden viel viele vielen vieler wenig wenige
    wenigen einige einigen manche manchen mehr meisten etwas nichts
    ich du er sie es wir ihr man mich dich ihn uns euch mir dir ihm ihnen sich
    mein meine meinen meinem meiner meines dein deine deinen deinem deiner deines sein seine seinen seinem seiner
    seines ihre ihren ihrem ihrer ihres unser unsere unseren unserem unserer unseres euer eure euren eurem eurer
    an am ans auf aus bei beim bis durch fuer gegen hinter in im ins mit nach neben ohne seit statt ueber um
    unter von vom vor waehrend wegen zu zum zur zwischen
    und oder aber denn sondern dass weil wenn als ob obwohl damit sodass sowie
    nicht auch noch schon nur sehr so dann da hier dort jetzt nun ja nein doch mal eben halt wohl gar ganz
    immer wieder oft nie bald gleich sogar etwa genau bitte danke hallo tschuess
    oben unten hoch tief vorne vorn hinten links rechts drinnen draussen drueben herzlich hinaus heraus hinein
    herein rein raus rauf runter los weiter zurueck ueberall irgendwo sofort gerade bereits eigentlich ziemlich
    besonders total echt`),
};

const NUMBERS = {
  en: list(`
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand
    thousands million millions billion billions dozen dozens first second third fourth fifth sixth seventh
    eighth ninth tenth once twice`),
  de: list(`
    null eins ein zwei drei vier fuenf sechs sieben acht neun zehn elf zwoelf dreizehn vierzehn fuenfzehn
    sechzehn siebzehn achtzehn neunzehn zwanzig dreissig vierzig fuenfzig sechzig siebzig achtzig neunzig
    hundert hunderte tausend tausende million millionen milliarde milliarden dutzend
    erste ersten erster erstes zweite zweiten zweiter dritte dritten dritter vierte vierten fuenfte fuenften
    einmal zweimal dreimal`),
};

/** Tens and units that German writes as one word ("einundzwanzig", "zweiundvierzig"). */
const DE_COMPOUND_NUMBER =
  /^(ein|zwei|drei|vier|fuenf|sechs|sieben|acht|neun)und(zwanzig|dreissig|vierzig|fuenfzig|sechzig|siebzig|achtzig|neunzig)(ste[nmrs]?)?$/;
/** English writes them with a hyphen ("twenty-one"), and ordinals of the tens end in -ieth. */
const EN_COMPOUND_NUMBER = /^(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-\w+$|^\w+tieth$/;

/** Units of time and measure: "forty minutes" is no topic, nor are "minutes" alone. */
const UNITS = {
  en: list(`
    second seconds minute minutes hour hours day days week weeks month months year years time times degree degrees
    percent gram grams kilo kilos kilogram kilograms litre litres liter liters metre metres meter meters`),
  de: list(`
    sekunde sekunden minute minuten stunde stunden tag tage tagen woche wochen monat monate monaten jahr jahre
    jahren mal zeit zeiten grad prozent gramm kilo kilogramm liter meter`),
};

const VERBS = {
  en: list(`
    need needs needed keep keeps kept blow blows blew blown make makes made take takes took taken get gets got
    gotten go goes went gone come comes came give gives gave given put puts say says said tell tells told know
    knows knew known think thinks thought want wants wanted see sees saw seen look looks looked seem seems seemed
    try tries tried become becomes became bring brings brought feel feels felt find finds found mean means meant
    stay stays stayed happen happens happened remember remembers wait waits waited gonna wanna gotta`),
  de: list(`
    ist sind war waren bin bist seid sei waere waeren gewesen hat habe haben hatte hatten hast habt gehabt
    wird werde werden wurde wurden wirst werdet geworden kann kannst koennen konnte konnten koennt muss musst
    muessen musste mussten soll sollst sollen sollte sollten will willst wollen wollte wollten darf darfst
    duerfen durfte mag moechte moechten moegen kommt komme kommen kam kamen kommst gibt gib geben gab gaben
    geht gehe gehen ging gingen macht mache machen machte sagt sage sagen sagte steht stehen stand liegt liegen
    sieht sehen sah schau schaut schauen guck guckt lass lasst lassen laesst nimm nimmt nehmen brauchen braucht
    brauche wissen weiss denke denkt glaube glaubt finde findet bleibt bleiben heisst zeigt zeigen`),
};

/** Greetings, said to someone and about nothing: two words each, German folded. */
const GREETINGS = list(`
  good_morning good_afternoon good_evening good_night good_day
  guten_morgen guten_tag guten_abend gute_nacht schoenen_tag schoenen_abend`);

/** German openers that are capitalised only because a sentence begins with them. */
const DE_OPENERS = list(`
  heute gestern morgen jetzt dann danach zuerst zuletzt spaeter vorher nachher endlich leider natuerlich vielleicht
  wirklich zusammen trotzdem deshalb deswegen darum also so nun hier dort da dabei dafuer damit dazu ausserdem
  gut schoen genau klar okay tja naja ach oh wow wie wo wann warum was wer welche`);

/**
 * A German word lower-cased and folded to ASCII the way German writes without umlauts (ä→ae, ß→ss), so a
 * list entry matches both spellings.
 * @example
 * fold('Für'); // 'fuer'
 */
export function fold(word: string): string {
  return word.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss');
}

/**
 * Whether a word may not stand at either end of a topic phrase: a stop word of either language, a
 * determiner, pronoun, preposition, number word (digits included) or unit of time or measure of `language`,
 * or one letter.
 * @example
 * isEdgeWord('every', 'en'); // true
 * isEdgeWord('vierzig', 'de'); // true
 * isEdgeWord('Kuchen', 'de'); // false
 */
export function isEdgeWord(word: string, language: Lang): boolean {
  const lower = word.toLowerCase();
  if (!isContentWord(lower) || /\d/.test(lower)) return true;
  const key = language === 'de' ? fold(lower) : lower;
  return FUNCTION[language].has(key) || UNITS[language].has(key) || isNumberWord(word, language);
}

/**
 * Whether a word names a number ("twenty", "vierzig", "einundzwanzig", "zweite"), which never makes a topic.
 * @example
 * isNumberWord('zwanzig', 'de'); // true
 */
export function isNumberWord(word: string, language: Lang): boolean {
  const key = language === 'de' ? fold(word) : word.toLowerCase();
  if (NUMBERS[language].has(key)) return true;
  return language === 'de' ? DE_COMPOUND_NUMBER.test(key) : EN_COMPOUND_NUMBER.test(key);
}

/**
 * Whether a word is a common verb form (an auxiliary, "need", "kommt", "gibt"…): such a word is never part of
 * a topic, whatever a tagger made of it.
 * @example
 * isVerbForm('kommt', 'de'); // true
 * isVerbForm('Keep', 'en'); // true
 */
export function isVerbForm(word: string, language: Lang): boolean {
  return VERBS[language].has(language === 'de' ? fold(word) : word.toLowerCase());
}

/**
 * Whether a capitalised German word at the start of a sentence is an opener (an adverb, a question word)
 * rather than a noun: "Heute", "Morgen gibt es…", "Dann".
 * @example
 * isGermanOpener('Heute'); // true
 */
export function isGermanOpener(word: string): boolean {
  return DE_OPENERS.has(fold(word));
}

/**
 * Whether two words are a greeting of either language ("Guten Morgen", "good evening"): what is said to
 * someone is no subject, so neither makes a topic or a question.
 * @example
 * isGreeting('Guten', 'Morgen'); // true
 * isGreeting('apple', 'cake'); // false
 */
export function isGreeting(first: string, second: string): boolean {
  return GREETINGS.has(`${fold(first)}_${fold(second)}`);
}
