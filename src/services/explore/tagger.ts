/**
 * English part-of-speech tags from wink-nlp with its English "lite web" model (both MIT, pure JavaScript:
 * no install scripts, no files or network at run time), so topic phrases can be cut at verbs and
 * determiners. The model takes about 0.2 s to load: it is loaded on first use, once per thread.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One token of tagged text. */
export interface TaggedToken {
  /** The token as written. */
  text: string;
  /** Universal POS tag (NOUN, PROPN, ADJ, VERB, DET, PRON, ADP, NUM, PUNCT, SPACE…). */
  pos: string;
  /** Whether a sentence starts here (first token, or after . ! ? : a bracket or a line break). */
  sentenceStart: boolean;
}

/**
 * Tokens after which a sentence starts: its end, a colon, and the brackets of the JSON list of tags that
 * stored episode texts hold between their screen text and their speech.
 */
const SENTENCE_END = /^[.!?:…[\]{}]+$/u;

let nlp: ReturnType<typeof winkNLP> | undefined;

/** wink-nlp with the English model, made once: the pipeline is only what POS tagging needs. */
function english(): ReturnType<typeof winkNLP> {
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  return nlp;
}

/**
 * Tokens of English text with their part of speech.
 * @example
 * tagEnglish('Now blow.').map((t) => t.pos); // ['ADV', 'VERB', 'PUNCT']
 */
export function tagEnglish(text: string): TaggedToken[] {
  const { its } = english();
  const tokens = english().readDoc(text).tokens();
  const texts = tokens.out(its.value) as string[];
  const tags = tokens.out(its.pos) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  let start = true;
  return texts.map((t, i) => {
    // The tokenizer keeps a full stop on words it takes for abbreviations ("lots of sun."): the word is
    // the token without it, and a sentence ends there.
    const text = /^\p{L}+\.$/u.test(t) ? t.slice(0, -1) : t;
    const token = { text, pos: tags[i], sentenceStart: start || spaces[i].includes('\n') };
    if (tags[i] === 'SPACE' || text !== t) start = true;
    else start = SENTENCE_END.test(t) || (start && tags[i] === 'PUNCT');
    return token;
  });
}
