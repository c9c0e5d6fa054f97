/**
 * What one MCP tool is: a name, a description that tells an agent when to use it, a zod input shape (the
 * SDK turns it into the JSON schema and validates arguments with it), the shape of its JSON answer, and a
 * function over the vidx API. Tools are plain values so both transports register the same list (see
 * tools/index.ts, and server.ts for how they are registered).
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

/** The shape of a tool's JSON answer, or null for a tool that answers plain text. */
export type OutputShape = z.ZodRawShape | null;

/** What `run` answers: a value of the output shape (or text when there is none), or a whole result such as a {@link toolError}. */
export type ToolAnswer<O extends OutputShape> = (O extends z.ZodRawShape ? z.input<z.ZodObject<O>> : string) | CallToolResult;

/** One tool. */
export interface ToolDef<S extends z.ZodRawShape = z.ZodRawShape, O extends OutputShape = OutputShape> {
  name: string;
  title: string;
  description: string;
  /** The arguments; no others are accepted (server.ts makes the object strict). */
  input: S;
  /** The JSON answer's fields: declared as the tool's outputSchema and sent as structuredContent. null: the tool answers text. */
  output: O;
  annotations?: ToolAnnotations;
  run(args: z.output<z.ZodObject<S>>, ctx: ToolContext): Promise<ToolAnswer<O>>;
}

/**
 * Declares a tool; the argument types follow from the input shape, and what `run` may answer from the output shape.
 * @example
 * export const getTask = defineTool({ name: 'get_task', title: 'Task', description: '…',
 *   input: { task_id: z.string() }, output: { status: z.string() },
 *   run: async ({ task_id }, { api }) => ({ status: (await readTask(api, task_id)).status }) });
 */
export function defineTool<S extends z.ZodRawShape, O extends OutputShape>(def: ToolDef<S, O>): ToolDef {
  // The list holds tools of different shapes; each one's run was checked against its own shapes above.
  return def as unknown as ToolDef;
}

const isResult = (value: unknown): value is CallToolResult =>
  typeof value === 'object' && value !== null && 'content' in value && Array.isArray((value as CallToolResult).content);

/**
 * A tool's answer as an MCP result. A JSON answer is structuredContent and, for clients older than
 * structured content (as MCP recommends), the same JSON as text; a text answer stays text.
 * @example
 * toolResult({ moments: [] }); // { content: [{ type: 'text', text: '{"moments":[]}' }], structuredContent: { moments: [] } }
 * toolResult('[0:52–0:58] The penalty.'); // { content: [{ type: 'text', text: '[0:52–0:58] The penalty.' }] }
 */
export function toolResult(answer: unknown): CallToolResult {
  if (isResult(answer)) return answer;
  if (typeof answer === 'string') return { content: [{ type: 'text', text: answer }] };
  const structured = answer as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A tool result that reports a failure to the agent (not a protocol error): the reason as text.
 * @example
 * return toolError(`task ${id} failed: ${task.error}`);
 */
export function toolError(reason: string): CallToolResult {
  return { content: [{ type: 'text', text: reason }], isError: true };
}
