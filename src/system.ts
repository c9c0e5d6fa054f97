import type { Config } from './config.js';
import { locateFfmpeg, locateFfprobe, locateYtDlp } from './media/binaries.js';

/**
 * Facts for GET /health: which external tools were found. Model capabilities join this when the model layer lands.
 * @example
 * describeSystem(config).tools.ffmpeg.available; // true
 */
export function describeSystem(_config: Config): Record<string, unknown> {
  const tool = (t: { path: string | null; source: string }, hint: string) =>
    t.path ? { available: true, source: t.source } : { available: false, reason: `not found: ${hint}` };
  return {
    tools: {
      ffmpeg: tool(locateFfmpeg(), 'install ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH'),
      ffprobe: tool(locateFfprobe(), 'install ffmpeg (apt-get install ffmpeg) or set FFPROBE_PATH'),
      yt_dlp: tool(locateYtDlp(), 'install yt-dlp for video-sharing page URLs, or set YTDLP_PATH'),
    },
  };
}
