import { MediaError, SourceError, type SourceErrorCode } from '../media/errors.js';
import { ToolError } from '../media/run.js';
import { HubUnreachableError } from '../ml/registry/download.js';

/** Why a task failed, in a form a person (and a script) can act on. */
export interface TaskFailure {
  /** What went wrong, naming the user's file as they know it. */
  message: string;
  /** A stable code: a MediaError or SourceError code, `collection_deleted`, `tool_failed`, `hub_unreachable`, `hub_port_blocked`, `interrupted` or `internal`. */
  code: string;
  /** Whether running the task again may succeed: false for bad media and refused paths, true for causes that pass. */
  retryable: boolean;
  /** The parameters of the message the code names in src/messages (`hub_unreachable`: hub, reason, id, repo, revision), for a page that words it itself. */
  params?: Record<string, string>;
}

/** Source failures that another try may get past: the network, a server's mood, a download tool. */
const PASSING_SOURCE: ReadonlySet<SourceErrorCode> = new Set(['unreachable', 'network', 'timeout', 'http_status', 'ytdlp_failed']);

/**
 * Classifies what a task handler threw. A file that is not media, a path outside the roots, a deleted
 * collection are final (`retryable: false`); a network failure, a crashed tool or anything unexpected may
 * pass (`retryable: true`).
 * @example
 * describeFailure(new MediaError('not_media', 'notes.txt is not a media file')); // { message: '…', code: 'not_media', retryable: false }
 */
export function describeFailure(err: unknown, message = err instanceof Error ? err.message : String(err)): TaskFailure {
  if (err instanceof MediaError) return { message, code: err.code, retryable: false };
  if (err instanceof SourceError) return { message, code: err.code, retryable: PASSING_SOURCE.has(err.code) };
  if (err instanceof HubUnreachableError) return { message, code: err.text.key, retryable: err.retryable, params: { ...err.text.params } };
  if (err instanceof ToolError) return { message, code: 'tool_failed', retryable: true };
  if (err instanceof TaskEnded) return { message, code: err.code, retryable: false };
  return { message, code: 'internal', retryable: true };
}

/**
 * A task that ended for a reason of its own, not of its media: its collection was deleted. Final.
 * @example
 * throw new TaskEnded('collection_deleted', 'collection deleted');
 */
export class TaskEnded extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TaskEnded';
  }
}
