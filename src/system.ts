import type { CapabilityName } from './ml/capabilities.js';
import type { CapabilityStatus } from './ml/pulled-model.js';
import type { ModelRuntime } from './ml/runtime.js';

/**
 * Facts for GET /health: which external tools were found and which model capabilities are available (and why not).
 * @example
 * describeSystem(models).capabilities.ocr.available; // true
 */
export function describeSystem(
  models: ModelRuntime,
  analysis: { threads: boolean } = { threads: false },
): {
  capabilities: Record<CapabilityName, CapabilityStatus>;
  analysis: { threads: boolean };
  picture_search: { fingerprints: true; image_text: boolean };
  tools: Record<string, unknown>;
} {
  const tool = (t: { path: string | null; source: string }, hint: string) =>
    t.path ? { available: true, source: t.source } : { available: false, reason: `not found: ${hint}` };
  const capabilities = models.capabilities();
  const { tools: t } = models;
  return {
    capabilities,
    // Search by picture always compares perceptual fingerprints; the image-text model adds its vectors.
    picture_search: { fingerprints: true, image_text: capabilities.image_text.available },
    // Where analyses run: threads (true) or the request thread (VIDX_ANALYSIS_THREADS=0, or no worker entry).
    analysis,
    tools: {
      ffmpeg: tool(t.locateFfmpeg(), 'install ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH'),
      ffprobe: tool(t.locateFfprobe(), 'install ffmpeg (apt-get install ffmpeg) or set FFPROBE_PATH'),
      yt_dlp: tool(t.locateYtDlp(), 'install yt-dlp for video-sharing page URLs, or set YTDLP_PATH'),
      tesseract: tool(t.locateTesseract(), 'install tesseract-ocr and tesseract-ocr-deu for German letters in on-screen text, or set TESSERACT_PATH'),
    },
  };
}
