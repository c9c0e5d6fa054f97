/**
 * The typed client of vidx's HTTP API, for the CLI, the MCP tools, the web page and anyone's TypeScript
 * scripts: every path, parameter, body and answer is typed from src/client/openapi.d.ts, which
 * scripts/gen-client.ts generates from the routes' own OpenAPI document. It runs over openapi-fetch, so in
 * Node and in browsers alike (nothing here imports from node:), and over any `fetch` (the MCP route passes
 * the Hono app's, to call the API in-process).
 *
 * Calls answer with the parsed body of a 2xx answer and throw a {@link VidxError} for any other status.
 */
import createClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit } from 'openapi-fetch';
import { failureOf, networkReason, VidxError } from './errors.js';
import { ndjsonElements } from './ndjson.js';
import type { components, paths } from './openapi.js';
import { mediaForm, modelArchiveForm, pictureSearchForm, type PictureSearchRequest, type UploadRequest } from './upload.js';

export type { components, operations, paths } from './openapi.js';
export { VidxError, type FieldError } from './errors.js';
export { mediaForm, modelArchiveForm, pictureSearchForm, type PictureSearchRequest, type UploadRequest } from './upload.js';

/**
 * The API's schemas by name, e.g. `Schemas['Collection']`, `Schemas['Task']`.
 * @example
 * const show = (c: Schemas['Collection']) => `${c.collection_id}: ${c.name}`;
 */
export type Schemas = components['schemas'];

/** The methods the API uses. */
type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The paths that answer a method, e.g. `PathsOf<'post'>` includes '/search'. */
type PathsOf<M extends Method> = ClientPathsWithMethod<Client<paths>, M>;

/** The init argument: optional when the operation needs no parameters and no body. */
type InitArgs<I> = undefined extends I ? [init?: I] : [init: I];

/** The success statuses the API answers with. */
type Ok = 200 | 201 | 202;

/**
 * The JSON body of an operation's 2xx answer, exactly as the document's schemas type it. (openapi-fetch's own
 * answer type drops properties whose type is `null`, such as an analysis episode's `faces`, so it is not used.)
 */
type Answer<Op> = Op extends { responses: infer R } ? { [S in keyof R & Ok]: R[S] extends { content: { 'application/json': infer B } } ? B : never }[keyof R & Ok] : never;

/** One method: the path with its `{placeholders}` as the document spells it, then params and body. */
type Call<M extends Method> = <P extends PathsOf<M>, I extends MaybeOptionalInit<paths[P], M>>(path: P, ...init: InitArgs<I>) => Promise<Answer<paths[P][M]>>;

/**
 * The JSON body of an operation, e.g. `RequestBody<'/search', 'post'>` is `Schemas['SearchRequest']`.
 * @example
 * const body: RequestBody<'/collections', 'post'> = { collection_id: 'trips', name: 'Trips' };
 */
export type RequestBody<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/**
 * The endpoints that stream their answer as NDJSON.
 * @example
 * const explore = (path: StreamPath) => vidx.stream(path, { collection: 'trips', query: 'lake' });
 */
export type StreamPath = '/search_clusters' | '/collection_suggestions' | '/ask';

/**
 * One element a streamed endpoint sends (ClusterElement or SuggestionElement; the StreamError a failure
 * ends with is thrown instead).
 * @example
 * const show = (el: StreamElement<'/collection_suggestions'>) => el.completion.text;
 */
export type StreamElement<P extends StreamPath> = Exclude<paths[P]['post']['responses'][200]['content']['application/x-ndjson'], Schemas['StreamError']>;

/**
 * The endpoints that take a file in the same request.
 * @example
 * const send = (path: UploadPath, file: Blob) => vidx.upload(path, { video: {} }, file, 'talk.mp4');
 */
export type UploadPath = '/index' | '/analyze';

/**
 * Where the server is and how to talk to it.
 * @example
 * const options: VidxClientOptions = { baseUrl: 'http://127.0.0.1:8484', key, unreachable: (why) => new Error(`vidx is down (${why})`) };
 */
export interface VidxClientOptions {
  /** e.g. `http://127.0.0.1:8484`; `''` in a page served by vidx (same origin). */
  baseUrl: string;
  /** Sent as `x-api-key`; leave out for the endpoints served without a key. */
  key?: string;
  /** Sends a request (default: the global fetch); the MCP route passes the app's in-process `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** More headers on every request; a function is asked again for each request (e.g. the page's language). */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Turns a refused request into the error thrown (default: the {@link VidxError} itself). */
  error?: (failure: VidxError) => Error;
  /**
   * Turns a request that got no answer (no server there, refused connection) into the error thrown, given
   * why (ECONNREFUSED, ENOTFOUND…); default: what `fetch` threw. An aborted request is never passed here.
   */
  unreachable?: (reason: string) => Error;
}

/**
 * The client {@link createVidxClient} makes.
 * @example
 * async function titles(vidx: VidxClient, collection_id: string) {
 *   const { items } = await vidx.GET('/collections/{collection_id}/items', { params: { path: { collection_id } } });
 *   return items.map((it) => it.title ?? it.media_id);
 * }
 */
export interface VidxClient {
  /** GET a path; resolves with the typed answer. */
  GET: Call<'get'>;
  /** POST to a path with its typed `body`. */
  POST: Call<'post'>;
  /** PUT to a path. */
  PUT: Call<'put'>;
  /** PATCH a path. */
  PATCH: Call<'patch'>;
  /** DELETE a path; resolves with what the server answers (mostly the deleted thing). */
  DELETE: Call<'delete'>;
  /**
   * A streamed endpoint's elements as they arrive (the request goes out at the first `next()`); a failure
   * after the stream began is thrown as a VidxError with the stream's code (`stream_failed`).
   */
  stream<P extends StreamPath>(path: P, body: RequestBody<P, 'post'>, opts?: { signal?: AbortSignal }): AsyncGenerator<StreamElement<P>, void, undefined>;
  /** POST /index or /analyze (with its request: IndexRequest or AnalyzeRequest) and the file in the same multipart request (see {@link mediaForm}). */
  upload(path: UploadPath, request: UploadRequest, file: Blob, filename: string): Promise<Schemas['TaskCreated']>;
  /** POST /search with a query picture in the same multipart request (see {@link pictureSearchForm}); words and `like` fuse with it. */
  searchByPicture(request: PictureSearchRequest, picture: Blob, filename: string): Promise<Schemas['SearchResponse']>;
  /** POST /models/import with a model archive (a tar of `vidx models export`, or of the hub's repository folder; see {@link modelArchiveForm}). */
  importModel(archive: Blob, filename: string, modelId?: string): Promise<Schemas['ModelInfo']>;
  /** openapi-fetch's own client over the same settings: answers `{data, error, response}` and throws nothing. */
  raw: Client<paths>;
}

/**
 * A client for one vidx server and key.
 * @example
 * const vidx = createVidxClient({ baseUrl: 'http://127.0.0.1:8484', key: process.env.VIDX_API_KEY });
 * const { collections } = await vidx.GET('/collections');
 * const { results } = await vidx.POST('/search', { body: { collection: 'trips', query: 'lake' } });
 * const task = await vidx.GET('/tasks/{task_id}', { params: { path: { task_id: id } } });
 */
export function createVidxClient(options: VidxClientOptions): VidxClient {
  const { baseUrl, key, headers, error: toError = (failure) => failure, unreachable } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const fetch = async (request: Request): Promise<Response> => {
    try {
      return await send(request);
    } catch (err) {
      throw unreachable && !request.signal.aborted ? unreachable(networkReason(err)) : err;
    }
  };
  const fixed: Record<string, string> = { accept: 'application/json', ...(key ? { 'x-api-key': key } : {}), ...(typeof headers === 'object' ? headers : {}) };
  const raw = createClient<paths>({ baseUrl, fetch, headers: fixed });
  if (typeof headers === 'function') {
    raw.use({
      onRequest({ request }) {
        for (const [name, value] of Object.entries(headers())) request.headers.set(name, value);
      },
    });
  }

  // Each method's types are checked at the call site (Call<M>); inside, one untyped call serves them all.
  const call =
    (method: Method) =>
    async (path: string, init?: object): Promise<unknown> => {
      const { data, error, response } = await raw.request(method, path as never, init as never);
      if (!response.ok) throw toError(failureOf(response, error));
      return data;
    };

  async function* stream<P extends StreamPath>(path: P, body: RequestBody<P, 'post'>, opts: { signal?: AbortSignal } = {}) {
    const res = (await raw.POST(path, { body, parseAs: 'stream', headers: { accept: 'application/x-ndjson' }, signal: opts.signal } as never)) as {
      data?: ReadableStream<Uint8Array> | null;
      error?: unknown;
      response: Response;
    };
    if (!res.response.ok) throw toError(failureOf(res.response, res.error));
    if (!res.data) return;
    try {
      yield* ndjsonElements<StreamElement<P>>(res.data, res.response.status);
    } catch (err) {
      throw err instanceof VidxError ? toError(err) : err;
    }
  }

  return {
    GET: call('get') as Call<'get'>,
    POST: call('post') as Call<'post'>,
    PUT: call('put') as Call<'put'>,
    PATCH: call('patch') as Call<'patch'>,
    DELETE: call('delete') as Call<'delete'>,
    stream,
    upload: async (path, request, file, filename) => (await call('post')(path, { body: mediaForm(request, file, filename) })) as Schemas['TaskCreated'],
    searchByPicture: async (request, picture, filename) => (await call('post')('/search', { body: pictureSearchForm(request, picture, filename) })) as Schemas['SearchResponse'],
    importModel: async (archive, filename, modelId) => (await call('post')('/models/import', { body: modelArchiveForm(archive, filename, modelId) })) as Schemas['ModelInfo'],
    raw,
  };
}
