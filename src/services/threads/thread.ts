/**
 * Entry of a thread: takes the server's settings (file access, tool and model paths) from its
 * workerData, keeps its own models (loaded lazily, as on the main thread), runs the calls it is sent with
 * progress and cancellation, and answers each with its output or its error. ONNX sessions in
 * onnxruntime-node run synchronously on the calling thread, so here they no longer hold up requests.
 * Started by ThreadPool; never imported by the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { yieldToRequests } from './priority.js';
import { FileAccess } from '../../media/index.js';
import { MediaTools } from '../../media/binaries.js';
import { ModelRuntime } from '../../ml/runtime.js';
import { runCall, type CallName } from './thread-calls.js';
import { toWire, type ThreadReply, type ThreadRequest, type ThreadSettings } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('services/threads/thread.ts runs as a thread only');
yieldToRequests();
const settings = workerData as ThreadSettings;
// The server's tool and model settings, as plain data, become the thread's own runtime.
const models = new ModelRuntime({
  modelsDir: settings.modelsDir,
  manifestPath: settings.manifestPath,
  // The thread's tools open their inputs through the server's file-access rule, made again from its settings.
  tools: new MediaTools(settings.tools, new FileAccess({ mediaRoots: settings.mediaRoots, dataDir: settings.dataDir, ownDirs: settings.ownDirs })),
  setup: { assets: settings.modelAssets, providers: settings.onnxProviders ?? 'cpu' },
});
const running = new Map<number, AbortController>();
// The pool ends these itself when a cancel finds this thread busy in a long synchronous stretch (an ONNX run).
models.tools.onChild = (pid, alive) => port.postMessage({ child: [pid, alive] } satisfies ThreadReply);

port.on('message', (m: ThreadRequest) => {
  if ('cancel' in m) {
    running.get(m.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(m.id, controller);
  const reply = (r: ThreadReply) => port.postMessage(r);
  const progress = (fraction: number, stage: string) => reply({ id: m.id, progress: [fraction, stage] });
  // The name was typed by ThreadPool.run; runCall refuses one it does not know.
  runCall(m.call as CallName, m.input as never, { signal: controller.signal, progress, models })
    .then((output) => reply({ id: m.id, output }))
    .catch((err: unknown) => reply({ id: m.id, error: toWire(err) }))
    .finally(() => running.delete(m.id));
});
