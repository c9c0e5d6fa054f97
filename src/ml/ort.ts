/**
 * The one import of onnxruntime-node for vidx's own sessions (OCR, VAD), with ONNX Runtime's telemetry
 * switched off. Since 1.30 the Linux build ships Microsoft's 1DS telemetry: on the first session it writes a
 * device id and an event cache under ~/.cache/Microsoft/DeveloperTools/.onnxruntime, `mat-debug-<pid>.log` and
 * `.ses` in the temp dir, and looks up mobile.events.data.microsoft.com to upload. ORT_DISABLE_TELEMETRY=1 stops
 * all of it, as long as it is set before the first session creates ORT's environment (loading the library is
 * fine), which is why it is set here and not left to the caller. transformers.js sets the same variable itself.
 */
import ort from 'onnxruntime-node';
import { switchOffOnnxTelemetry } from '../config.js';

switchOffOnnxTelemetry();

/**
 * onnxruntime-node's default export, safe to create sessions with.
 * @example
 * import ort from '../ort.js';
 * const s = await ort.InferenceSession.create(path);
 */
export default ort;
