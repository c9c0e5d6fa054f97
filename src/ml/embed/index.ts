/** Embeddings: multilingual text (e5) and image–text (CLIP / SigLIP). */
export * from './text.js';
export * from './image-text.js';
export { l2normalize } from './vectors.js';
