/**
 * A local instruct model that writes answers (issue 46), run by llama.cpp through node-llama-cpp: a GGUF
 * file of the model registry, loaded on the first question (llama.cpp works in its own native threads, never
 * on the request thread), shared by two questions at a time, and unloaded when it has been idle a while, so
 * a server that is rarely asked does not hold a gigabyte for nothing. Its output is held to a JSON schema by
 * a grammar, so it is always a valid object; what it means is checked by the caller.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import PQueue from 'p-queue';
import { requireInstalledModel, type ModelChoice } from '../registry/local.js';

/** The JSON schema the output is held to: node-llama-cpp's subset (objects, strings with maxLength, enums). */
export type OutputSchema = Readonly<Record<string, unknown>>;

/** What one answer asks of the model. */
export interface WriteRequest {
  system: string;
  prompt: string;
  schema: OutputSchema;
  maxTokens: number;
  /** Aborted by a caller who left, or by the time limit: the model stops at the next token. */
  signal: AbortSignal;
  /** Each piece of text as the model writes it. */
  onText?: (text: string) => void;
}

/** How the model is run. */
export interface LocalModelOptions {
  /** Unloaded after this long without a question (ms). */
  idleMs: number;
  /** llama.cpp's threads: one fewer than the cores, at least one (a spinning thread on a busy core stalls all). */
  threads?: number;
  /** Tokens of context per question (prompt and answer). */
  contextSize?: number;
  /** node-llama-cpp's module file, where the single binary unpacked it; the installed package when absent. */
  library?: string;
}

/** Where the single binary unpacks node-llama-cpp's bundle, inside its folder (scripts/binary/llama.ts). */
export const PACKED_LLAMA_ENTRY = 'node-llama-cpp/dist/index.mjs';
/** The CommonJS file beside that bundle that imports it: `module.exports = (url) => import(url)`. */
export const PACKED_LLAMA_IMPORTER = 'import.cjs';

type NodeLlama = typeof import('node-llama-cpp');
type Llama = Awaited<ReturnType<NodeLlama['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
type LlamaSequence = ReturnType<LlamaContext['getSequence']>;

interface Loaded {
  lib: NodeLlama;
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  /** The context's sequences not in use: taken by a question, cleared and given back after it. */
  free: LlamaSequence[];
}

/** Questions the model answers at once (each on its own sequence of one context). */
const AT_ONCE = 2;

/**
 * The answer model of a models dir (the manifest's `answer` capability).
 * @example
 * const model = new LocalAnswerModel({ modelsDir }, { idleMs: 300_000 });
 * const json = await model.write({ system, prompt, schema, maxTokens: 400, signal });
 */
export class LocalAnswerModel {
  private loaded: Promise<Loaded> | null = null;
  private readonly queue = new PQueue({ concurrency: AT_ONCE });
  private idleTimer: NodeJS.Timeout | null = null;
  private busy = 0;

  constructor(
    private readonly choice: ModelChoice,
    private readonly opts: LocalModelOptions,
  ) {}

  /** The model's id (the manifest's), without loading it. Throws ModelNotInstalledError when it is not pulled. */
  get modelId(): string {
    return requireInstalledModel(this.choice, 'answer').entry.id;
  }

  /** Whether the model is in memory now. */
  get isLoaded(): boolean {
    return this.loaded !== null;
  }

  /**
   * The model's output for one question: the JSON text its grammar allows. Waits its turn behind
   * {@link AT_ONCE} others; loads the model first when it is not in memory.
   */
  async write(req: WriteRequest): Promise<string> {
    this.busy++;
    this.stopIdleTimer();
    try {
      // Not p-queue's own signal: it frees the slot of a running question at once, while its sequence is held.
      return (await this.queue.add(() => {
        req.signal.throwIfAborted();
        return this.run(req);
      })) as string;
    } finally {
      this.busy--;
      if (this.busy === 0) this.startIdleTimer();
    }
  }

  /** Frees the model's memory (it loads again on the next question). */
  async unload(): Promise<void> {
    this.stopIdleTimer();
    const loaded = this.loaded;
    this.loaded = null;
    if (!loaded) return;
    const l = await loaded.catch(() => null);
    await l?.context.dispose();
    await l?.model.dispose();
  }

  private async run(req: WriteRequest): Promise<string> {
    const { lib, llama, free } = await this.load();
    // The queue lets AT_ONCE questions run, and each holds one sequence: one is always free here.
    const sequence = free.pop()!;
    const session = new lib.LlamaChatSession({ contextSequence: sequence, systemPrompt: req.system, autoDisposeSequence: false });
    try {
      const grammar = await llama.createGrammarForJsonSchema(req.schema as Parameters<Llama['createGrammarForJsonSchema']>[0]);
      return await session.prompt(req.prompt, {
        grammar, maxTokens: req.maxTokens, temperature: 0, signal: req.signal,
        ...(req.onText ? { onTextChunk: req.onText } : {}),
      });
    } finally {
      session.dispose();
      await sequence.clearHistory();
      free.push(sequence);
    }
  }

  private load(): Promise<Loaded> {
    if (!this.loaded) {
      this.loaded = this.open();
      // A failed load is not kept: the next question tries again (after a pull, say).
      this.loaded.catch(() => {
        this.loaded = null;
      });
    }
    return this.loaded;
  }

  private async open(): Promise<Loaded> {
    const { entry, dir } = requireInstalledModel(this.choice, 'answer');
    const file = entry.files.find((f) => f.path.endsWith('.gguf'));
    if (!file) throw new Error(`model ${entry.id} names no .gguf file`);
    const lib = await this.importLibrary();
    // CPU only and never a build from source: a server must not start compiling on a question.
    const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error });
    const model = await llama.loadModel({ modelPath: `${dir}/${file.path}` });
    const threads = this.opts.threads ?? Math.max(1, availableParallelism() - 1);
    const context = await model.createContext({ contextSize: this.opts.contextSize ?? 4096, sequences: AT_ONCE, threads }).catch(async (err: unknown) => {
      await model.dispose();
      throw err;
    });
    return { lib, llama, model, context, free: Array.from({ length: AT_ONCE }, () => context.getSequence()) };
  }

  private async importLibrary(): Promise<NodeLlama> {
    const { library } = this.opts;
    if (library) {
      // Through a CommonJS file beside it: the single binary's application runs as a vm script, whose own
      // import() has no loader, while a file Node loads from disk has Node's.
      const importer = createRequire(library)(`./${PACKED_LLAMA_IMPORTER}`) as (url: string) => Promise<unknown>;
      return (await importer(pathToFileURL(library).href)) as NodeLlama;
    }
    return import('node-llama-cpp').catch(() => {
      throw new Error('node-llama-cpp is not installed (npm i -E node-llama-cpp@3.21.1)');
    });
  }

  private startIdleTimer(): void {
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => void this.unload(), this.opts.idleMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
