import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { closeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { basename, resolve } from 'node:path';
import { childEnvironment } from '../config.js';
import { defaultTools, type MediaTools } from './binaries.js';
import { SourceError } from './errors.js';
import { guardInputs, nameDescriptors, type GuardedArgs } from './input-guard.js';

/** A tool by name (located through the caller's {@link MediaTools}) or by explicit path (yt-dlp, tests). */
export type Tool = 'ffmpeg' | 'ffprobe' | { path: string };

/** Options shared by {@link spawnTool} and {@link runTool}. */
export interface ToolOptions {
  /** Aborting kills the child (SIGKILL) and rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** How many bytes of stderr are kept for error messages (the tail). Default 16 KiB. */
  stderrLimit?: number;
  /** Called for every stderr line as it arrives, for tools that report on stderr (showinfo, metadata=print). */
  onStderrLine?: (line: string) => void;
  /** Variables added to the child's environment (the rest is inherited). */
  env?: Record<string, string>;
  /** Where ffmpeg and ffprobe are: the server's tools (from its settings). Default: npm packages, then PATH. */
  tools?: MediaTools;
}

/** A running tool. `done` settles when the child has exited and its pipes are closed. */
export interface ToolProcess {
  stdout: Readable;
  /** Resolves on exit code 0; rejects with {@link ToolError} otherwise, or with the abort reason. */
  done: Promise<{ stderr: string }>;
  /** The stderr tail captured so far. */
  stderr(): string;
  /** Kills the child now (SIGKILL); safe to call more than once or after exit. */
  kill(): void;
}

/**
 * A tool exited badly or could not be started. The message carries the last stderr lines.
 * @example
 * catch (e) { if (e instanceof ToolError) log(e.exitCode, e.stderr); }
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly tool: string,
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ToolError';
  }
}

const LINE_CAP = 64 * 1024;

function toolPath(tool: Tool, tools: MediaTools): string {
  if (tool === 'ffmpeg') return tools.ffmpeg();
  if (tool === 'ffprobe') return tools.ffprobe();
  return tool.path;
}

/** Last few non-empty stderr lines, which is where ffmpeg says what went wrong. */
function stderrSummary(stderr: string): string {
  const lines = stderr.split(/\r?\n|\r/).map((l) => l.trim()).filter(Boolean);
  const tail = lines.slice(-3).join(' | ');
  return tail.length > 600 ? `…${tail.slice(-600)}` : tail;
}

/**
 * Spawns ffmpeg/ffprobe (or a tool by path) with stdin closed, stdout as a stream and stderr captured
 * (bounded). The child is killed when `signal` aborts or when the caller calls `kill()` (e.g. in a
 * `finally` after breaking out of a read loop). ffmpeg and ffprobe inputs go through
 * {@link guardInputs}: each local input is opened and checked here and read by the child through its
 * descriptor, with local protocols only and no demuxer that opens further inputs.
 * @example
 * const p = spawnTool('ffmpeg', ['-i', file, '-f', 'f32le', 'pipe:1'], { signal });
 * try { for await (const buf of p.stdout) use(buf); await p.done; } finally { p.kill(); }
 */
export function spawnTool(tool: Tool, args: readonly string[], opts: ToolOptions = {}): ToolProcess {
  const { signal, stderrLimit = 16 * 1024, onStderrLine, env, tools = defaultTools } = opts;
  signal?.throwIfAborted();
  const bin = toolPath(tool, tools);
  const name = basename(bin);
  let guarded: GuardedArgs = { args: [...args], fds: [], names: [] };
  try {
    if (typeof tool === 'string') guarded = guardInputs(bin, args, tools.files);
  } catch (err) {
    if (err instanceof SourceError) throw err;
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ToolError(`${name} could not open its input: ${why}`, name, args, null, '', { cause: err });
  }
  let child: ChildProcessByStdio<null, Readable, Readable>;
  try {
    // The cast: with extra descriptors in `stdio` the typings cannot see that fds 1 and 2 are pipes.
    child = spawn(bin, guarded.args, { stdio: ['ignore', 'pipe', 'pipe', ...guarded.fds], windowsHide: true, env: env ? childEnvironment(env) : undefined }) as ChildProcessByStdio<null, Readable, Readable>;
  } finally {
    for (const fd of guarded.fds) closeSync(fd);
  }
  const pid = child.pid;
  if (pid !== undefined) tools.onChild?.(pid, true);

  let tail = '';
  let partial = '';
  // What callers read of stderr names the input files, never the descriptors they were passed as.
  const stderrTail = (): string => nameDescriptors(tail, guarded.names);
  const pushLine = (line: string): void => {
    if (!onStderrLine) return;
    try {
      onStderrLine(line);
    } catch {
      // A faulty line handler must not break the pipe; the caller sees its own state.
    }
  };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    tail += chunk;
    if (tail.length > stderrLimit) tail = tail.slice(-stderrLimit);
    if (!onStderrLine) return;
    partial += chunk;
    const parts = partial.split(/\r?\n|\r/);
    partial = parts.pop() ?? '';
    if (partial.length > LINE_CAP) partial = partial.slice(-LINE_CAP);
    for (const line of parts) pushLine(line);
  });

  let exited = false;
  const kill = (): void => {
    if (!exited && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const onAbort = (): void => kill();
  signal?.addEventListener('abort', onAbort, { once: true });

  const done = new Promise<{ stderr: string }>((resolve, reject) => {
    child.once('error', (err) => {
      exited = true;
      signal?.removeEventListener('abort', onAbort);
      reject(new ToolError(`${name} could not be started: ${err.message}`, name, args, null, stderrTail(), { cause: err }));
    });
    child.once('close', (code, sig) => {
      exited = true;
      if (pid !== undefined) tools.onChild?.(pid, false);
      signal?.removeEventListener('abort', onAbort);
      if (partial) pushLine(partial);
      if (signal?.aborted) return reject(signal.reason);
      if (code === 0) return resolve({ stderr: stderrTail() });
      const how = code === null ? `was killed (${sig})` : `failed (exit code ${code})`;
      const why = stderrSummary(stderrTail());
      reject(new ToolError(`${name} ${how}${why ? `: ${why}` : ''}`, name, args, code, stderrTail()));
    });
  });
  // Callers that kill early may never await `done`; this keeps that from becoming an unhandled rejection.
  done.catch(() => undefined);

  return { stdout: child.stdout, done, stderr: stderrTail, kill };
}

/**
 * Runs a tool to completion and returns its stdout (bounded by `maxStdoutBytes`, default 64 MiB).
 * @example
 * const { stdout } = await runTool('ffprobe', ['-v', 'error', '-of', 'json', '-show_format', file]);
 */
export async function runTool(
  tool: Tool,
  args: readonly string[],
  opts: ToolOptions & { maxStdoutBytes?: number } = {},
): Promise<{ stdout: Buffer; stderr: string }> {
  const { maxStdoutBytes = 64 * 1024 * 1024 } = opts;
  const proc = spawnTool(tool, args, opts);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of proc.stdout as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxStdoutBytes) {
        proc.kill();
        const name = typeof tool === 'string' ? tool : basename(tool.path);
        throw new ToolError(`${name} wrote more than ${maxStdoutBytes} bytes to stdout`, name, args, null, proc.stderr());
      }
      chunks.push(chunk);
    }
    const { stderr } = await proc.done;
    return { stdout: Buffer.concat(chunks), stderr };
  } finally {
    proc.kill();
  }
}

/**
 * A local path as an ffmpeg input/output URL. The `file:` prefix stops names such as `concat:x` or
 * `http:x` being read as protocols and names starting with `-` being read as options.
 * @example
 * spawnTool('ffmpeg', ['-i', fileUrl('clip.mp4'), ...]); // '-i', 'file:/abs/clip.mp4'
 */
export function fileUrl(path: string): string {
  return `file:${resolve(path)}`;
}
