/**
 * MCP's "resource not found" (-32002, with the URI in `data`, as the spec's resources page shows it). The
 * SDK answers a thrown error with its `code`, `message` and `data`; without a code it would be -32603, an
 * internal error, which tells a client nothing about the URI.
 */
import { ApiFailure } from './api.js';

/** The JSON-RPC error code MCP gives a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A resources/read of a URI that names nothing the key may see.
 * @example
 * throw new ResourceNotFound('vidx://collections/demo/items/gone', 'item "gone" not found');
 */
export class ResourceNotFound extends Error {
  readonly code = RESOURCE_NOT_FOUND;
  readonly data: { uri: string };
  constructor(uri: string, reason: string) {
    super(`Resource not found: ${reason}`);
    this.name = 'ResourceNotFound';
    this.data = { uri };
  }
}

/**
 * Reads a resource, turning the API's 404 (an item or collection that is not there, or not the key's) into
 * {@link ResourceNotFound}; every other failure stays what it was.
 * @example
 * const text = await orNotFound(uri.href, () => itemTranscriptText(api, 'demo', 'gone'));
 */
export async function orNotFound<T>(uri: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 404) throw new ResourceNotFound(uri, err.message);
    throw err;
  }
}
