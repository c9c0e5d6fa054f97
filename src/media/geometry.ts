import { displaySize, type VideoInfo } from './probe-json.js';

/**
 * Output size for frames of a video scaled to at most `maxWidth` wide, keeping the display aspect
 * (rotation and non-square pixels applied), both sides even so every encoder accepts them.
 * Never upscales.
 * @example
 * scaledSize({ width: 1920, height: 1080, rotation: 0, sar: 1 }, 960); // { width: 960, height: 540 }
 */
export function scaledSize(v: Pick<VideoInfo, 'width' | 'height' | 'rotation' | 'sar'>, maxWidth: number): { width: number; height: number } {
  const d = displaySize(v);
  const even = (n: number): number => Math.max(2, Math.round(n / 2) * 2);
  const width = even(Math.min(d.width, maxWidth));
  return { width, height: even((width * d.height) / d.width) };
}

/**
 * The ffmpeg filter that produces frames of exactly `size` with square pixels.
 * @example
 * scaleFilter({ width: 960, height: 540 }); // 'scale=960:540:flags=bicubic,setsar=1'
 */
export function scaleFilter(size: { width: number; height: number }): string {
  return `scale=${size.width}:${size.height}:flags=bicubic,setsar=1`;
}
