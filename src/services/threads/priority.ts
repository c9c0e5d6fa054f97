/**
 * Analysis threads run at a lower CPU priority than the request thread, so searches keep their pace while
 * a video is analysed (issue 30: search p99 under indexing). On Linux a nice value belongs to one thread,
 * and what the thread starts inherits it: the ONNX Runtime threads it creates and the ffmpeg processes it
 * spawns. `os.setPriority(0, n)` sets the calling thread's (libuv's `setpriority(PRIO_PROCESS, 0)`).
 */
import { setPriority } from 'node:os';

/** How much lower than the server analysis threads run (nice 10: a fair share, ~10 % of a busy core against nice 0). */
export const ANALYSIS_NICE = 10;

/**
 * Lowers the calling thread's CPU priority to ANALYSIS_NICE. Where that is refused (another OS, a sandbox
 * without setpriority), analysis runs at the server's priority as before.
 * @example
 * yieldToRequests(); // first thing in an analysis worker_thread
 */
export function yieldToRequests(): void {
  try {
    setPriority(0, ANALYSIS_NICE);
  } catch {
    // Not fatal: only the pace of searches during analysis depends on it.
  }
}
