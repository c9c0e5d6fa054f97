/**
 * What one MCP tool is: a name, a description that tells an agent when to use it, a zod input shape (the
 * SDK turns it into the JSON schema and validates arguments with it) and a function over the vidx API.
 * Tools are plain values so both transports register the same list (see tools/index.ts).
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { VidxApi } from './api.js';

/** What the SDK hands a tool besides its arguments: cancellation, progress token, notifications. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool runs with. */
export interface ToolContext {
  api: VidxApi;
  extra: ToolExtra;
  /** Aborted when the server hosting the tools stops: waits end early. */
  stopping?: AbortSignal;
}

/** One tool. `run` returns a value (sent as JSON text), a string (sent as is) or a whole CallToolResult. */
export interface ToolDef<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations?: ToolAnnotations;
  run(args: z.output<z.ZodObject<S>>, ctx: ToolContext): Promise<unknown>;
}

/**
 * Declares a tool; the argument types follow from the input shape.
 * @example
 * export const getTask = defineTool({ name: 'get_task', title: 'Task', description: '…',
 *   input: { task_id: z.string() }, run: ({ task_id }, { api }) => api.get(`/tasks/${task_id}`) });
 */
export function defineTool<S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef {
  // The list holds tools of different shapes; each one's run was checked against its own shape above.
  return def as unknown as ToolDef;
}

/**
 * A tool's return value as an MCP result: text stays text, anything else becomes compact JSON.
 * @example
 * toolResult({ moments: [] }); // { content: [{ type: 'text', text: '{"moments":[]}' }] }
 */
export function toolResult(value: unknown): CallToolResult {
  if (value && typeof value === 'object' && 'content' in value && Array.isArray((value as CallToolResult).content)) return value as CallToolResult;
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

/**
 * A tool result that reports a failure to the agent (not a protocol error): the reason as text.
 * @example
 * return toolError(`task ${id} failed: ${task.error}`);
 */
export function toolError(reason: string): CallToolResult {
  return { content: [{ type: 'text', text: reason }], isError: true };
}
