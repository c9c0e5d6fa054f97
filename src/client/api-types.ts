/**
 * The shapes of vidx's HTTP answers as its own clients read them (the CLI and the MCP tools): one copy,
 * matching the schemas in the OpenAPI document.
 */

/** A task as GET /tasks/{task_id} answers it. */
export interface ApiTask {
  id: string;
  /** What the task does: index, analyze, folder_scan, reindex, clusters or suggestions. */
  kind: string;
  endpoint: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  stage: string | null;
  // `unknown`: each caller narrows the result of its own endpoint.
  result: unknown;
  /** Why it failed; null unless failed. */
  error: { message: string; code: string; retryable: boolean } | null;
  data: unknown;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One result of POST /search (the fields the clients show). */
export interface ApiSearchResult {
  media_id: string;
  episode_id: number;
  start_time: number;
  score: number;
  content: string;
  src: string;
  /** vidx extras (folders): the item's type and capture time. */
  media_type?: 'video' | 'audio' | 'image';
  captured_at?: string | null;
}
