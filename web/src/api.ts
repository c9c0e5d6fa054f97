/**
 * The page's only way to the server: same-origin requests carrying the key as `x-api-key`. Nothing here
 * takes a host name, so the key cannot go anywhere else.
 */

/** A refused request: the server's `detail`, its status and code. */
export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly code: string) {
    super(message);
  }
}

import { lang } from './i18n.js';

// The shapes vidx's own clients share (CLI, MCP); the page adds the fields it shows. Type-only: nothing of src/ is bundled.
import type { ApiSearchResult, ApiTask } from '../../src/client/api-types.js';

/** Every shape the page reads from the API (docs/api.md and the pages beside it document them). */
export interface Collection { collection_id: string; name: string; description: string | null; is_public: boolean; thumbnails?: string[] | null }
export interface Item {
  type: 'video' | 'audio' | 'image'; media_id: string; thumbnail_url: string | null; src: string | null; title: string | null; duration: number | null;
  additional_metadata: Record<string, unknown> | null;
  captured_at?: string | null; captured_at_source?: 'metadata' | 'file' | null; size?: number | null; folder_path?: string | null;
}
/** How the grid orders items (GET …/items?sort=&order=&type=). */
export interface ItemListing { sort?: 'added' | 'name' | 'captured' | 'duration'; order?: 'asc' | 'desc'; type?: Item['type'] }
export interface TimedText { start: number; end: number; text: string }
export interface Visual { start: number; end: number; summary: string }
export interface SearchResult extends ApiSearchResult { image_url: string; audio: TimedText[]; computer_vision: Visual[]; media_type?: Item['type']; title?: string | null; captured_at?: string | null; captured_at_source?: 'metadata' | 'file' | null; people?: { person_id: string; name: string | null }[] }
export interface Episode { episode_id: number; start: number; end: number; summary: string; thumbnail_url: string | null; audio: TimedText[]; visual: Visual[]; on_screen_text: string[]; tags: string[] }
export interface Analysis { video_summary: string; video_duration: number; episodes: Episode[] }
/** A task's stage as a code with the item it is on (the page says it in its language). */
export interface TaskStep { code: string; item?: { n: number; total: number; name: string } }
export interface Task extends Omit<ApiTask, 'data' | 'result'> {
  data: {
    collection?: string; folder_id?: string; path?: string; model_id?: string; media_ids?: string[] | null;
    video?: { title?: string | null; media_id?: string | null; content?: string | null; path?: string | null; url?: string | null };
    upload?: { filename: string; size: number } | null;
  };
  result: Record<string, unknown> | null;
  step?: TaskStep | null;
}
export interface Cluster { answer: string; teaser_id: number; cluster_results: SearchResult[]; additional_info: string; related_queries: string[] }
export interface Suggestion { completion: { type: 'topic' | 'question'; text: string; media_ids: string[] } }
export interface ScanProblem { path: string; reason: string; code?: string }
export interface ScanResult { found: number; added: number; changed: number; moved: number; removed: number; unchanged: number; skipped: number; skipped_files: ScanProblem[]; failed: ScanProblem[] }
export interface Folder { folder_id: string; collection_id: string; path: string; recursive: boolean; exclude: string[]; watch: boolean; created_at: string; last_scan: string | null; scan_task_id: string | null; last_scan_result: ScanResult | null }
export interface Capability { available: boolean; model?: string; reason?: string }
export interface ModelInfo { id: string; capability: string; repo: string; license: string; default: boolean; state: 'installed' | 'partial' | 'missing'; size_bytes: number; bytes_on_disk: number; in_use: boolean }
export interface Health { status: 'ok'; version: string; capabilities: Record<string, Capability>; admin_key_file?: string | null }
export interface Share { share_id: string; url: string; media_id: string; start_time: number; created_at: string; expires_at: string }
export interface SharedMoment {
  title: string | null; type: Item['type']; duration: number | null; start_time: number; expires_at: string; src: string | null; thumbnail_url: string | null;
  chapters: { start: number; end: number; summary: string }[]; transcript: TimedText[];
}
export interface Me { id: string; name: string; role: 'admin' | 'user' }
export interface Person { person_id: string; name: string | null; face_count: number; media_count: number; cover_url: string | null }
export interface PersonMoment { media_id: string; title: string | null; track_id: number; start: number; end: number; score: number; thumbnail_url: string | null }

const enc = encodeURIComponent;

/**
 * A client bound to one key.
 * @example
 * const api = new Api(key);
 * const { collections } = await api.collections(false);
 */
export class Api {
  constructor(private readonly key: string) {}

  private async call<T>(method: string, path: string, json?: unknown): Promise<T> {
    // The server words its errors in the page's language.
    const headers: Record<string, string> = { 'x-api-key': this.key, accept: 'application/json', 'accept-language': lang() };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    return read<T>(res);
  }

  me = () => this.call<Me>('GET', '/me');
  collections = (pub: boolean) => this.call<{ collections: Collection[] }>('GET', `/collections?public=${pub}&return_thumbnails=true`);
  createCollection = (c: { collection_id: string; name: string; description: string | null; is_public: boolean }) => this.call<Collection>('POST', '/collections', c);
  updateCollection = (id: string, c: { name?: string; is_public?: boolean }) => this.call<Collection>('PUT', `/collections/${enc(id)}`, c);
  deleteCollection = (id: string) => this.call<Collection>('DELETE', `/collections/${enc(id)}`);
  items = (id: string, pub: boolean, offset: string | null, listing: ItemListing = {}) => {
    const q = new URLSearchParams({ limit: '48', is_public: String(pub), ...(offset ? { offset } : {}) });
    for (const [k, v] of Object.entries(listing)) if (v) q.set(k, v);
    return this.call<{ items: Item[]; offset: string | null; total: number }>('GET', `/collections/${enc(id)}/items?${q}`);
  };
  updateItem = (id: string, mediaId: string, patch: { title?: string | null; additional_metadata?: Record<string, unknown> | null }) =>
    this.call<Item>('PATCH', `/collections/${enc(id)}/items/${enc(mediaId)}`, patch);
  reindex = (id: string, mediaIds: string[] | null) => this.call<{ task_id: string }>('POST', `/collections/${enc(id)}/reindex`, mediaIds ? { media_ids: mediaIds } : {});
  shares = (id: string, mediaId: string) => this.call<{ shares: Share[] }>('GET', `/collections/${enc(id)}/items/${enc(mediaId)}/shares`);
  share = (id: string, mediaId: string, days: 1 | 7, start: number) => this.call<Share>('POST', `/collections/${enc(id)}/items/${enc(mediaId)}/shares`, { days, start_time: start });
  revokeShare = (id: string, mediaId: string, shareId: string) => this.call<Share>('DELETE', `/collections/${enc(id)}/items/${enc(mediaId)}/shares/${enc(shareId)}`);
  health = () => this.call<Health>('GET', '/health');
  models = () => this.call<{ models: ModelInfo[]; capabilities: Record<string, Capability> }>('GET', '/models');
  pullModel = (modelId: string) => this.call<{ task_id: string }>('POST', `/models/${enc(modelId)}/pull`);
  removeModel = (modelId: string) => this.call<ModelInfo>('DELETE', `/models/${enc(modelId)}`);
  task = (taskId: string) => this.call<Task>('GET', `/tasks/${enc(taskId)}`);
  item = (id: string, mediaId: string, pub: boolean) => this.call<Item>('GET', `/collections/${enc(id)}/items/${enc(mediaId)}?is_public=${pub}`);
  deleteItem = (id: string, mediaId: string) => this.call<unknown>('DELETE', `/collections/${enc(id)}/items/${enc(mediaId)}`);
  analysis = (id: string, mediaId: string, pub: boolean) => this.call<Analysis>('GET', `/collections/${enc(id)}/items/${enc(mediaId)}/analysis?is_public=${pub}`);
  search = (collection: string, query: string, filters: Record<string, string> = {}) =>
    this.call<{ results: SearchResult[] }>('POST', '/search', { collection, query, limit: 30, ...filters });
  folders = (id: string) => this.call<{ folders: Folder[] }>('GET', `/collections/${enc(id)}/folders`);
  addFolder = (id: string, f: { path: string; recursive: boolean; watch: boolean }) => this.call<Folder>('POST', `/collections/${enc(id)}/folders`, f);
  scanFolder = (id: string, folderId: string) => this.call<{ task_id: string }>('POST', `/collections/${enc(id)}/folders/${enc(folderId)}/scan`);
  removeFolder = (id: string, folderId: string) => this.call<Folder>('DELETE', `/collections/${enc(id)}/folders/${enc(folderId)}`);
  people = (id: string) => this.call<{ collection_id: string; faces: boolean; unscanned_items: number; people: Person[] }>('GET', `/collections/${enc(id)}/people`);
  setFaces = (id: string, enabled: boolean) => this.call<{ faces: boolean }>('PUT', `/collections/${enc(id)}/faces`, { enabled });
  namePerson = (id: string, personId: string, name: string | null) => this.call<Person>('PUT', `/collections/${enc(id)}/people/${enc(personId)}`, { name });
  mergePeople = (id: string, into: string, other: string) => this.call<Person>('POST', `/collections/${enc(id)}/people/${enc(into)}/merge`, { person_id: other });
  deletePerson = (id: string, personId: string) => this.call<unknown>('DELETE', `/collections/${enc(id)}/people/${enc(personId)}`);
  personMoments = (id: string, personId: string) => this.call<{ person: Person; moments: PersonMoment[] }>('GET', `/collections/${enc(id)}/people/${enc(personId)}/moments`);
  tasks = () => this.call<{ tasks: Task[]; total: number }>('GET', '/tasks?limit=50');
  retryTask = (id: string) => this.call<Task>('POST', `/tasks/${enc(id)}/retry`);
  deleteTask = (id: string) => this.call<Task>('DELETE', `/tasks/${enc(id)}`);

  /** Streams the elements of /search_clusters or /collection_suggestions (NDJSON) as they arrive. */
  async stream<T>(path: '/search_clusters' | '/collection_suggestions', body: unknown, onElement: (el: T) => void, signal: AbortSignal): Promise<void> {
    const res = await fetch(path, {
      method: 'POST', signal,
      headers: { 'x-api-key': this.key, 'content-type': 'application/json', accept: 'application/x-ndjson', 'accept-language': lang() },
      body: JSON.stringify(body),
    });
    if (!res.ok || !res.body) return void (await read(res));
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (value) buffer += value;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const el = JSON.parse(line) as T & { error?: { detail: string; code: string } };
        if (el.error) throw new ApiError(el.error.detail, 500, el.error.code);
        onElement(el);
      }
      if (done) return;
    }
  }

  /**
   * Uploads a file to POST /index (multipart: the `body` field first, then the file part that
   * `video.content` names), reporting upload progress; resolves with the task id.
   */
  upload(file: File, collection: string, language: 'en' | 'de', onProgress: (sent: number, total: number) => void): { done: Promise<string>; abort: () => void } {
    const xhr = new XMLHttpRequest();
    const done = new Promise<string>((resolve, reject) => {
      const form = new FormData();
      // The server names the item after the file; the file's own date goes along as the fallback date (never a recording date).
      const modified = file.lastModified ? { file_modified_at: new Date(file.lastModified).toISOString() } : {};
      form.append('body', JSON.stringify({ collection, index_language: language, video: { content: file.name, ...modified } }));
      form.append('file', file, file.name);
      xhr.open('POST', '/index');
      xhr.setRequestHeader('x-api-key', this.key);
      xhr.setRequestHeader('accept', 'application/json');
      xhr.setRequestHeader('accept-language', lang());
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total || file.size);
      xhr.onload = () => {
        let body: { task_id?: string; detail?: string; code?: string } = {};
        try {
          body = JSON.parse(xhr.responseText) as typeof body;
        } catch {
          // A proxy's HTML error page: the status says enough.
        }
        if (xhr.status === 202 && body.task_id) resolve(body.task_id);
        else reject(new ApiError(body.detail ?? `HTTP ${xhr.status}`, xhr.status, body.code ?? 'error'));
      };
      xhr.onerror = () => reject(new ApiError('the upload was interrupted', 0, 'network'));
      xhr.onabort = () => reject(new ApiError('the upload was cancelled', 0, 'aborted'));
      xhr.send(form);
    });
    return { done, abort: () => xhr.abort() };
  }
}

async function read<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { detail: text.slice(0, 200) };
  }
  if (!res.ok) {
    const b = (body ?? {}) as { detail?: string; code?: string };
    throw new ApiError(b.detail ?? `HTTP ${res.status}`, res.status, b.code ?? 'error');
  }
  return body as T;
}

/**
 * What a share link shows (`GET /shared/<token>`): a plain request without any key, as the person
 * opening the link has none. A link that is unknown, expired or revoked is an ApiError with status 404.
 * @example
 * const moment = await openShare(token);
 */
export async function openShare(token: string): Promise<SharedMoment> {
  const res = await fetch(`/shared/${enc(token)}`, { headers: { accept: 'application/json', 'accept-language': lang() } });
  return read<SharedMoment>(res);
}
