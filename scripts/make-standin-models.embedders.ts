/**
 * CLIP ViT-B/32 (vision: 12 layers, 768 wide, patch 32, 224 px; text: 12 layers, 512 wide, 77 tokens,
 * vocab 49408; both projected to 512) and multilingual-e5-small (BERT: 12 layers, 384 wide, 12 heads,
 * vocab 250037, 512 positions), int8 like the hub's q8 files, with random weights.
 *
 * The tokenizers have the real vocabulary sizes, but only the words listed here are whole tokens; any
 * other word falls apart into characters, so unknown text costs more tokens than with the real ones.
 */
import { VISUAL_VOCABULARY, visualPrompt } from '../src/analysis/vocabulary.js';
import { encodeModel, Graph, int, ints } from './make-fixture-models.onnx.js';
import { clipPreprocessor, type RepoFiles } from './make-fixture-models.js';
import { byteLevelBpe, template, wordPiece } from './make-fixture-models.tokenizers.js';
import { Nn } from './make-standin-models.nn.js';
import { STANDIN_SPEECH } from './make-standin-models.whisper.js';

/** Words the bench video, its summaries and the bench queries use; whole tokens in the stand-in tokenizers. */
const COMMON_WORDS = (
  'a an the of in on at to and or is are was be it this that for with from by as we you they what means next weeks ' +
  'slide now talk about quarterly results apfelkuchen rezept penalty shot training sunset over lake product roadmap ' +
  'team offsite berlin customer feedback ice hockey finals garden planning budget review mountain hiking trip kitchen ' +
  'renovation summer holiday photos weekly standup birthday party football tactics winter market research update ' +
  'piano lesson closing remarks screen seen photo dog cat car beach people'
).split(' ');

function words(): string[] {
  const labels = VISUAL_VOCABULARY.flatMap(([en, de]) => [...visualPrompt(en).split(' '), ...de.toLowerCase().split(' ')]);
  return [...new Set([...COMMON_WORDS, ...STANDIN_SPEECH, ...labels])];
}

/** A [b, n, w] sequence with a learned row prepended: [b, n + 1, w]. */
function prependRow(nn: Nn, seq: string, like: string, width: number): string {
  const batch = nn.op('Slice', [nn.op('Shape', [like]), nn.g.int64(nn.name('s'), [0]), nn.g.int64(nn.name('e'), [1])]);
  const shape = nn.op('Concat', [batch, nn.g.int64(nn.name('rest'), [1, width])], { axis: int(0) });
  const cls = nn.op('Expand', [nn.f32([1, 1, width], 0.02), shape]);
  return nn.op('Concat', [cls, seq], { axis: int(1) });
}

function clipVision(): Graph {
  const W = 768;
  const nn = new Nn(new Graph('standin-clip-vit-b32-vision'), true);
  nn.g.input('pixel_values', 'float32', ['batch_size', 3, 224, 224]);
  const patches = nn.conv('pixel_values', W, 3, [32, 32], [32, 32], [0, 0, 0, 0], false);
  const seq = nn.op('Transpose', [nn.op('Reshape', [patches, nn.g.int64('flat', [0, W, 49])])], { perm: ints([0, 2, 1]) });
  let x = nn.op('Add', [prependRow(nn, seq, 'pixel_values', W), nn.f32([50, W], 0.02)]);
  x = nn.layerNorm(x, W);
  for (let l = 0; l < 12; l++) x = nn.preLnLayer(x, W, 12, 3072, 'quickGelu');
  const cls = nn.op('Gather', [x, nn.g.int64('cls_index', [0], [])], { axis: int(1) });
  nn.g.node('Identity', [nn.linear(nn.layerNorm(cls, W), W, 512, false)], ['image_embeds']);
  nn.g.output('image_embeds', 'float32', ['batch_size', 512]);
  return nn.g;
}

function clipText(): Graph {
  const W = 512;
  const nn = new Nn(new Graph('standin-clip-vit-b32-text'), true);
  nn.g.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  nn.g.input('attention_mask', 'int64', ['batch_size', 'sequence_length']);
  let x = nn.op('Add', [nn.embedding('input_ids', 49408, W).out, nn.positions('input_ids', 77, W)]);
  for (let l = 0; l < 12; l++) x = nn.preLnLayer(x, W, 8, 2048, 'quickGelu');
  const last = nn.layerNorm(x, W);
  nn.g.node('Identity', [last], ['last_hidden_state']);
  // Pooled at the end-of-text token, which has the highest id (as CLIP's export does with ArgMax).
  const eos = nn.op('ArgMax', ['input_ids'], { axis: int(-1), keepdims: int(1) });
  const pooled = nn.op('GatherND', [last, eos], { batch_dims: int(1) });
  nn.g.node('Identity', [nn.linear(pooled, W, 512, false)], ['text_embeds']);
  nn.g.output('text_embeds', 'float32', ['batch_size', 512]);
  nn.g.output('last_hidden_state', 'float32', ['batch_size', 'sequence_length', W]);
  return nn.g;
}

/**
 * The files of `Xenova/clip-vit-base-patch32` as the manifest names them, with stand-in weights.
 * @example
 * writeRepo(modelsDir, 'Xenova/clip-vit-base-patch32', clipFiles());
 */
export function clipFiles(): RepoFiles {
  const list = words();
  const tok = byteLevelBpe({
    words: [...list, ...list.map((w) => ` ${w}`)],
    specials: ['<|startoftext|>', '<|endoftext|>'],
    fillTo: 49406,
    postProcessor: (ids) => template(ids, ['<|startoftext|>'], ['<|endoftext|>']),
  });
  if (tok.size !== 49408) throw new Error(`stand-in CLIP tokenizer has ${tok.size} tokens, want 49408`);
  const BOS = tok.ids.get('<|startoftext|>') as number;
  const EOS = tok.ids.get('<|endoftext|>') as number;
  return {
    'config.json': {
      architectures: ['CLIPModel'],
      model_type: 'clip',
      projection_dim: 512,
      logit_scale_init_value: 2.6592,
      text_config: { model_type: 'clip_text_model', hidden_size: 512, intermediate_size: 2048, num_attention_heads: 8, num_hidden_layers: 12, vocab_size: 49408, max_position_embeddings: 77, projection_dim: 512, bos_token_id: BOS, eos_token_id: EOS, pad_token_id: EOS },
      vision_config: { model_type: 'clip_vision_model', hidden_size: 768, intermediate_size: 3072, num_attention_heads: 12, num_hidden_layers: 12, image_size: 224, patch_size: 32, projection_dim: 512 },
    },
    'preprocessor_config.json': clipPreprocessor(224),
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': {
      tokenizer_class: 'CLIPTokenizer',
      bos_token: '<|startoftext|>',
      eos_token: '<|endoftext|>',
      pad_token: '<|endoftext|>',
      unk_token: '<|endoftext|>',
      model_max_length: 77,
      do_lower_case: true,
    },
    'onnx/text_model_quantized.onnx': encodeModel(clipText()),
    'onnx/vision_model_quantized.onnx': encodeModel(clipVision()),
  };
}

function e5Graph(): Graph {
  const W = 384;
  const nn = new Nn(new Graph('standin-multilingual-e5-small'), true);
  for (const n of ['input_ids', 'attention_mask', 'token_type_ids']) nn.g.input(n, 'int64', ['batch_size', 'sequence_length']);
  const types = nn.op('Gather', [nn.f32([2, W], 0.02), 'token_type_ids'], { axis: int(0) });
  const emb = nn.op('Add', [nn.op('Add', [nn.embedding('input_ids', 250037, W).out, types]), nn.positions('input_ids', 512, W)]);
  // Padding masked out of every attention: (1 - mask) · -10000 as [b, 1, 1, s].
  const maskF = nn.op('Cast', ['attention_mask'], { to: int(1) });
  const inv = nn.op('Mul', [nn.op('Sub', [nn.fill([], 1), maskF]), nn.fill([], -10000)]);
  const mask = nn.op('Unsqueeze', [inv, nn.g.int64('mask_axes', [1, 2])]);
  let x = nn.layerNorm(emb, W);
  for (let l = 0; l < 12; l++) {
    const a = nn.layerNorm(nn.op('Add', [x, nn.selfAttention(x, W, 12, { mask })]), W);
    x = nn.layerNorm(nn.op('Add', [a, nn.mlp(a, W, 1536, 'gelu')]), W);
  }
  nn.g.node('Identity', [x], ['last_hidden_state']);
  nn.g.output('last_hidden_state', 'float32', ['batch_size', 'sequence_length', W]);
  return nn.g;
}

/**
 * The files of `Xenova/multilingual-e5-small` as the manifest names them, with stand-in weights.
 * @example
 * writeRepo(modelsDir, 'Xenova/multilingual-e5-small', e5Files());
 */
export function e5Files(): RepoFiles {
  const tok = wordPiece(['query', 'passage', ...words()], 250037);
  if (tok.size !== 250037) throw new Error(`stand-in e5 tokenizer has ${tok.size} tokens, want 250037`);
  return {
    'config.json': {
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: 384,
      intermediate_size: 1536,
      num_attention_heads: 12,
      num_hidden_layers: 12,
      max_position_embeddings: 512,
      type_vocab_size: 2,
      vocab_size: 250037,
      pad_token_id: 0,
    },
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': {
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
      model_max_length: 512,
    },
    'onnx/model_quantized.onnx': encodeModel(e5Graph()),
  };
}
