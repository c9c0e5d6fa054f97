/**
 * Sets the addon folder in a worker thread of the single binary before any addon loads (imported first by
 * the worker entries; a worker does not share the main thread's modules).
 */
import { setNativeRoot } from './native.js';

const root = process.env.VIDX_NATIVE_ROOT;
if (!root) throw new Error('vidx: a binary worker thread started without VIDX_NATIVE_ROOT');
setNativeRoot(root);
