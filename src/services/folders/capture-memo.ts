import { readCaptureInfo, readContentCapture, type CaptureInfo, type ContentCapture } from '../../media/capture-info.js';
import type { MediaTools } from '../../media/binaries.js';
import { LRUMapWithDelete } from 'mnemonist';

/** Files of one scan whose content capture stays remembered: copies of a file come close together. */
const REMEMBERED = 1000;

/**
 * Capture info by content within one scan: what the content states is read once for all copies of a file
 * (hard links, duplicates); the mtime fallback is each file's own.
 * @example
 * const capture = captureMemo(tools);
 * await capture.read(fingerprint, '/srv/media/a.mp4', 'video', signal); // { capturedAt, source, … }
 */
export function captureMemo(tools: MediaTools): { read(fingerprint: string, file: string, kind: 'image' | 'video' | 'audio', signal?: AbortSignal): Promise<CaptureInfo> } {
  const byContent = new LRUMapWithDelete<string, Promise<ContentCapture>>(REMEMBERED);
  return {
    read: async (fingerprint, file, kind, signal) => {
      const key = `${kind}:${fingerprint}`;
      let p = byContent.get(key);
      if (!p) {
        p = readContentCapture(file, kind, tools, signal);
        byContent.set(key, p);
        p.catch(() => byContent.delete(key));
      }
      return readCaptureInfo(file, kind, tools, signal, await p);
    },
  };
}
