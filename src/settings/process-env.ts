/**
 * The process environment where the lower layers need it: what child processes inherit and what the ONNX
 * Runtime reads at load. Beside the settings schema, so media and ml read nothing from src/config.ts (which
 * sits above them).
 */

/**
 * The environment of a child process: this process's own, with `extra` on top.
 * @example
 * spawn(tesseract, args, { env: childEnvironment({ OMP_THREAD_LIMIT: '1' }) });
 */
export function childEnvironment(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...process.env, ...extra };
}

/**
 * Switches ONNX Runtime's telemetry off for this process; it must happen before the first session (src/ml/ort.ts).
 * @example
 * switchOffOnnxTelemetry();
 */
export function switchOffOnnxTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = '1';
}
