/**
 * Entry of an analysis worker thread: owns its own models (loaded lazily, as on the main thread) and the
 * server's file-access rule, runs one analysis at a time and reports progress. ONNX sessions in
 * onnxruntime-node run synchronously on the calling thread, so here they no longer hold up requests.
 * Started by AnalysisWorkers; never imported by the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { configureFileAccess } from '../../../media/index.js';
import { ModelRuntime } from '../../../ml/runtime.js';
import { analyzeImage } from '../image.js';
import { analyzeFile } from '../pipeline.js';
import { toWire, type AnalysisReply, type AnalysisRequest, type AnalysisWorkerSettings } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('services/analysis/worker/thread.ts runs as a worker thread only');
const settings = workerData as AnalysisWorkerSettings;
configureFileAccess({ mediaRoots: settings.mediaRoots, dataDir: settings.dataDir, ownDirs: settings.ownDirs });
const models = new ModelRuntime({ modelsDir: settings.modelsDir, manifestPath: settings.manifestPath });
const running = new Map<number, AbortController>();

port.on('message', (m: AnalysisRequest) => {
  if ('cancel' in m) {
    running.get(m.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(m.id, controller);
  const reply = (r: AnalysisReply) => port.postMessage(r);
  const analyze = m.kind === 'image' ? analyzeImage : analyzeFile;
  analyze(m.input, { models, signal: controller.signal, progress: (fraction, stage) => reply({ id: m.id, progress: [fraction, stage] }) })
    .then((analysis) => reply({ id: m.id, analysis }))
    .catch((err: unknown) => reply({ id: m.id, error: toWire(err) }))
    .finally(() => running.delete(m.id));
});
