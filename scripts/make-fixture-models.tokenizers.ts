/**
 * Tiny tokenizer.json builders in the Hugging Face `tokenizers` format, for the fixture models:
 * a byte-level BPE (Whisper, CLIP) and a WordPiece (BERT / e5). Every byte is in the BPE vocab,
 * so any text tokenizes; the few merges only make the listed words single tokens.
 */

/**
 * A TemplateProcessing post-processor that wraps one sequence in special tokens.
 * @example
 * template(ids, ['<|startoftext|>'], ['<|endoftext|>']);
 */
export function template(ids: Map<string, number>, before: string[], after: string[]): Record<string, unknown> {
  const special = (s: string) => ({ SpecialToken: { id: s, type_id: 0 } });
  return {
    type: 'TemplateProcessing',
    single: [...before.map(special), { Sequence: { id: 'A', type_id: 0 } }, ...after.map(special)],
    pair: [...before.map(special), { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, ...after.map(special)],
    special_tokens: Object.fromEntries([...before, ...after].map((s) => [s, { id: s, ids: [ids.get(s)], tokens: [s] }])),
  };
}

/** One entry of tokenizer.json `added_tokens`. */
export interface AddedToken {
  id: number;
  content: string;
  single_word: false;
  lstrip: false;
  rstrip: false;
  normalized: boolean;
  special: boolean;
}

/** A built tokenizer: the JSON to write and the id of every token by its string. */
export interface BuiltTokenizer {
  json: Record<string, unknown>;
  ids: Map<string, number>;
  size: number;
}

/**
 * GPT-2's reversible byte → printable character table.
 * @example
 * bytesToUnicode()[32]; // 'Ġ'
 */
export function bytesToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const table: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    table[b] = printable.includes(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++);
  }
  return table;
}

/**
 * Maps text to its byte-level characters ("Ġ" for a leading space, and so on).
 * @example
 * byteLevel(' Hello'); // 'ĠHello'
 */
export function byteLevel(text: string): string {
  const table = bytesToUnicode();
  return Array.from(new TextEncoder().encode(text), (b) => table[b]).join('');
}

/** Unreachable filler entries (no merge or piece produces them), so the vocab has its real size. */
function fill(ids: Map<string, number>, size = 0): void {
  for (let i = 0; ids.size < size; i++) ids.set(`<fill_${i}>`, ids.size);
}

function added(id: number, content: string, special: boolean): AddedToken {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: !special, special };
}

/**
 * A byte-level BPE tokenizer: 256 byte tokens, chained merges for `words`, then `specials`
 * (special added tokens) and `plainAdded` (non-special added tokens, e.g. Whisper timestamps).
 * @example
 * const t = byteLevelBpe({ words: [' Hello'], specials: ['<|endoftext|>'] });
 * t.ids.get(byteLevel(' Hello'));
 */
export function byteLevelBpe(opts: {
  words: string[];
  specials: string[];
  plainAdded?: string[];
  /** Pads the BPE vocab with unreachable entries up to this size (before the added tokens), for real-sized vocabularies. */
  fillTo?: number;
  /** The post-processor, built once every token has its id. Default: GPT-2's ByteLevel. */
  postProcessor?: (ids: Map<string, number>) => Record<string, unknown>;
}): BuiltTokenizer {
  const ids = new Map<string, number>();
  for (const ch of bytesToUnicode()) ids.set(ch, ids.size);
  const merges: string[] = [];
  for (const word of opts.words) {
    const chars = Array.from(byteLevel(word));
    let left = chars[0];
    for (const right of chars.slice(1)) {
      const merged = left + right;
      if (!ids.has(merged)) {
        merges.push(`${left} ${right}`);
        ids.set(merged, ids.size);
      }
      left = merged;
    }
  }
  fill(ids, opts.fillTo);
  const vocab = Object.fromEntries(ids);
  const addedTokens: AddedToken[] = [];
  for (const s of opts.specials) {
    ids.set(s, ids.size);
    addedTokens.push(added(ids.get(s) as number, s, true));
  }
  for (const s of opts.plainAdded ?? []) {
    ids.set(s, ids.size);
    addedTokens.push(added(ids.get(s) as number, s, false));
  }
  // Added tokens belong in the model vocab too, as in the tokenizer.json files on the hub.
  for (const t of addedTokens) vocab[t.content] = t.id;
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: opts.postProcessor?.(ids) ?? { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges,
    },
  };
  return { json, ids, size: ids.size };
}

/**
 * A BERT-style WordPiece tokenizer with [CLS] … [SEP] template, lower-casing, and a vocab of
 * letters, `##`-continuations and the given whole words (padded with fillers up to `fillTo`).
 * @example
 * const t = wordPiece(['query', 'passage', 'hello']);
 */
export function wordPiece(words: string[], fillTo?: number): BuiltTokenizer {
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const ids = new Map<string, number>();
  for (const s of specials) ids.set(s, ids.size);
  const chars = Array.from('abcdefghijklmnopqrstuvwxyzäöüß0123456789.,:;!?\'"-()');
  for (const c of chars) ids.set(c, ids.size);
  for (const c of chars) ids.set(`##${c}`, ids.size);
  for (const w of words) if (!ids.has(w)) ids.set(w, ids.size);
  fill(ids, fillTo);
  const token = (s: string) => ({ SpecialToken: { id: s, type_id: 0 } });
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((s) => added(ids.get(s) as number, s, true)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [token('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, token('[SEP]')],
      pair: [
        token('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        token('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((s) => [s, { id: s, ids: [ids.get(s)], tokens: [s] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(ids),
    },
  };
  return { json, ids, size: ids.size };
}
