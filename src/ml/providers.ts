/**
 * Which ONNX Runtime execution providers vidx's sessions ask for (VIDX_ONNX_PROVIDERS): the CPU, or
 * onnxruntime-node's CUDA provider first with the CPU for the rest (a GPU worker, see docs/workers.md). The
 * choice is part of a server's ModelSetup (src/ml/assets.ts) and is passed to each session as it is made.
 */

/** The choices of VIDX_ONNX_PROVIDERS. */
export type OnnxProviders = 'cpu' | 'cuda';

/**
 * The session options that choose the providers: none for the CPU (ONNX Runtime's default), else CUDA then CPU.
 * @example
 * ort.InferenceSession.create(file, { intraOpNumThreads: 2, ...providerOptions('cuda') });
 */
export function providerOptions(providers: OnnxProviders): { executionProviders?: string[] } {
  return providers === 'cuda' ? { executionProviders: ['cuda', 'cpu'] } : {};
}

/**
 * The part of a shared session's key that tells providers apart: empty on the CPU (so keys stay file paths).
 * @example
 * sharedModel(`asr:${dir}${providerKey(providers)}`, load);
 */
export function providerKey(providers: OnnxProviders): string {
  return providers === 'cpu' ? '' : `@${providers}`;
}
