/**
 * Sets the addon folder in a thread of the single binary before any addon loads (imported first by
 * the worker entry; a worker does not share the main thread's modules). The folder comes with the thread's
 * settings (ThreadSettings.nativeRoot).
 */
import { workerData } from 'node:worker_threads';
import { setNativeRoot } from './native.js';

const root = (workerData as { nativeRoot?: string } | null)?.nativeRoot;
if (!root) throw new Error('vidx: a binary thread started without the unpacked folder in its settings');
setNativeRoot(root);
