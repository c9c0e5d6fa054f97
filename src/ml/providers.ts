/**
 * Which ONNX Runtime execution providers vidx's sessions ask for (VIDX_ONNX_PROVIDERS): the CPU, or
 * onnxruntime-node's CUDA provider first with the CPU for the rest (a GPU worker, see docs/workers.md). Set
 * once per thread at start (the server, each worker thread, `vidx worker`), before the first session.
 */

/** The choices of VIDX_ONNX_PROVIDERS. */
export type OnnxProviders = 'cpu' | 'cuda';

let chosen: OnnxProviders = 'cpu';

/**
 * Sets the providers of the sessions created from now on in this thread.
 * @example
 * configureOnnxProviders(config.onnxProviders);
 */
export function configureOnnxProviders(providers: OnnxProviders): void {
  chosen = providers;
}

/**
 * The session options that choose the providers: none for the CPU (ONNX Runtime's default), else CUDA then CPU.
 * @example
 * ort.InferenceSession.create(file, { intraOpNumThreads: 2, ...providerOptions() });
 */
export function providerOptions(): { executionProviders?: string[] } {
  return chosen === 'cuda' ? { executionProviders: ['cuda', 'cpu'] } : {};
}
