/**
 * The page's only way to the server: the typed client of src/client (browser-safe: nothing of it imports
 * node:), sending same-origin requests (base URL '') that carry the key as `x-api-key` and the page's
 * language as `accept-language`. Nothing here takes a host name, so the key cannot go anywhere else.
 */
import { createVidxClient, mediaForm, VidxError, type operations, type RequestBody, type Schemas, type StreamElement, type StreamPath, type VidxClient } from '../../src/client/index.js';
import { failureOf } from '../../src/client/errors.js';
import { type Lang, lang } from './i18n.js';

/** A refused request: the server's `detail` as the message, its status and code. */
export { VidxError };

/** The shapes the page reads, as the API document types them (src/client/openapi.d.ts). */
export type Collection = Schemas['Collection'];
export type Item = Schemas['MediaItem'];
/** How the grid orders and filters items (GET …/items?sort=&order=&type=&near=). */
export type ItemListing = Pick<NonNullable<operations['listItems']['parameters']['query']>, 'sort' | 'order' | 'type' | 'near' | 'near_km' | 'captured_after' | 'captured_before'>;
export type TimeEvent = Schemas['Event'];
export type Episode = Schemas['AnalysisEpisode'];
export type TimedText = Episode['audio'][number];
export type Visual = Episode['visual'][number];
export type Analysis = Schemas['ItemAnalysis'];
export type SearchResult = Schemas['SearchResult'];
/** What a search answer says besides its results: what it could not look for, words it read as others, a date or place it read in them. */
export type SearchSaid = Pick<Schemas['SearchResponse'], 'notices' | 'corrected' | 'understood'>;
/** A date and a place the server read in a query's words (POST /search `understood`). */
export type Understood = NonNullable<Schemas['SearchResponse']['understood']>;
/** The search filters the page offers (POST /search extras). */
export type SearchFilterFields = Pick<RequestBody<'/search', 'post'>, 'media_type' | 'captured_after' | 'captured_before' | 'speaker'>;
/** A moment to find more like (POST /search `like`). */
export type LikeMoment = NonNullable<RequestBody<'/search', 'post'>['like']>;
/** What one search asks for: words, a picture, a moment to find more like; any of them together are fused. `exact`: the words as typed, never corrected, no date or place read in them. */
export interface SearchProbe { query?: string; picture?: File; like?: LikeMoment; exact?: boolean }
export type DuplicateGroup = Schemas['DuplicateGroup'];
export type DuplicateItem = Schemas['DuplicateItem'];
export type Cluster = StreamElement<'/search_clusters'>;
export type Suggestion = StreamElement<'/collection_suggestions'>;
export type AskElement = StreamElement<'/ask'>;
export type Citation = Schemas['AskCitation'];
export type ScanProblem = Schemas['ScanProblem'];
/** A scan's counts as a folder keeps them (a scan task's result has its folder_id besides). */
export type ScanResult = NonNullable<Folder['last_scan_result']>;
export type Folder = Schemas['Folder'];
export type Capability = Schemas['CapabilityInfo'];
export type ModelInfo = Schemas['ModelInfo'];
export type Share = Schemas['Share'];
export type SharedMoment = Schemas['SharedMoment'];
export type Me = Schemas['Me'];
/** GET /workers: the live workers and the job queue (null without one). */
export type WorkerList = Schemas['WorkerList'];
export type Person = Schemas['Person'];
export type PersonMoment = Schemas['PersonMoment'];
export type PersonVoice = Schemas['PersonVoice'];
export type LinkSuggestion = Schemas['PersonLinkSuggestion'];

/** GET /health: capabilities, the work gate and (on loopback) the admin key file. */
export type Health = Schemas['Health'];

/** A task's stage as a code with the item it is on (the page says it in its language). */
export type TaskStep = NonNullable<Schemas['Task']['step']>;

/** What every task has, whatever its kind (the document's Task is a union by kind). */
type TaskFields = Omit<Schemas['Task'], 'kind' | 'data' | 'result'>;

/** A task as the page reads it: without narrowing by kind, so `data` holds every kind's fields as optional. */
export interface Task extends TaskFields {
  kind: Schemas['Task']['kind'];
  data: Partial<Schemas['IndexTaskData'] & Schemas['ScanTaskData'] & Schemas['ReindexTaskData'] & Schemas['SearchClustersTaskData'] & Schemas['ModelPullTaskData']>;
  result: Record<string, unknown> | null;
}

/** The page's language on every request: the server words its errors in it. */
const language = () => ({ 'accept-language': lang() });

/**
 * A client bound to one key.
 * @example
 * const api = new Api(key);
 * const { collections } = await api.collections(false);
 */
export class Api {
  private readonly vidx: VidxClient;

  constructor(private readonly key: string) {
    this.vidx = createVidxClient({ baseUrl: '', key, headers: language });
  }

  me = () => this.vidx.GET('/me');
  collections = (pub: boolean) => this.vidx.GET('/collections', { params: { query: { public: pub, return_thumbnails: true } } });
  createCollection = (c: RequestBody<'/collections', 'post'>) => this.vidx.POST('/collections', { body: c });
  updateCollection = (id: string, c: RequestBody<'/collections/{collection_id}', 'put'>) => this.vidx.PUT('/collections/{collection_id}', { params: inCollection(id), body: c });
  deleteCollection = (id: string) => this.vidx.DELETE('/collections/{collection_id}', { params: inCollection(id) });
  items = (id: string, pub: boolean, offset: string | null, listing: ItemListing = {}) =>
    this.vidx.GET('/collections/{collection_id}/items', { params: { ...inCollection(id), query: { limit: 48, is_public: pub, offset: offset ?? undefined, ...listing } } });
  updateItem = (id: string, mediaId: string, patch: RequestBody<'/collections/{collection_id}/items/{media_id}', 'patch'>) =>
    this.vidx.PATCH('/collections/{collection_id}/items/{media_id}', { params: ofItem(id, mediaId), body: patch });
  reindex = (id: string, mediaIds: string[] | null) => this.vidx.POST('/collections/{collection_id}/reindex', { params: inCollection(id), body: mediaIds ? { media_ids: mediaIds } : {} });
  shares = (id: string, mediaId: string) => this.vidx.GET('/collections/{collection_id}/items/{media_id}/shares', { params: ofItem(id, mediaId) });
  share = (id: string, mediaId: string, days: 1 | 7, start: number) =>
    this.vidx.POST('/collections/{collection_id}/items/{media_id}/shares', { params: ofItem(id, mediaId), body: { days, start_time: start } });
  revokeShare = (id: string, mediaId: string, shareId: string) =>
    this.vidx.DELETE('/collections/{collection_id}/items/{media_id}/shares/{share_id}', { params: { path: { ...ofItem(id, mediaId).path, share_id: shareId } } });
  health = () => this.vidx.GET('/health');
  workers = () => this.vidx.GET('/workers');
  models = () => this.vidx.GET('/models');
  pullModel = (modelId: string) => this.vidx.POST('/models/{model_id}/pull', { params: { path: { model_id: modelId } } });
  importModel = (archive: File) => this.vidx.importModel(archive, archive.name);
  removeModel = (modelId: string) => this.vidx.DELETE('/models/{model_id}', { params: { path: { model_id: modelId } } });
  // Read as the page's Task: one shape whatever the kind (see Task).
  task = (taskId: string) => this.vidx.GET('/tasks/{task_id}', { params: ofTask(taskId) }) as Promise<Task>;
  item = (id: string, mediaId: string, pub: boolean) => this.vidx.GET('/collections/{collection_id}/items/{media_id}', { params: { ...ofItem(id, mediaId), query: { is_public: pub } } });
  deleteItem = (id: string, mediaId: string) => this.vidx.DELETE('/collections/{collection_id}/items/{media_id}', { params: ofItem(id, mediaId) });
  // `language`: one of the item's subtitle_languages, whose lines then fill the episodes' audio.
  analysis = (id: string, mediaId: string, pub: boolean, language?: string) =>
    this.vidx.GET('/collections/{collection_id}/items/{media_id}/analysis', { params: { ...ofItem(id, mediaId), query: { is_public: pub, ...(language ? { language } : {}) } } });
  search = (collection: string, probe: SearchProbe, filters: SearchFilterFields = {}) => {
    const request = { collection, limit: 30, ...(probe.query ? { query: probe.query } : {}), ...(probe.like ? { like: probe.like } : {}), ...(probe.exact ? { correct_typos: false, understand: false } : {}), ...filters };
    return probe.picture ? this.vidx.searchByPicture(request, probe.picture, probe.picture.name || 'picture') : this.vidx.POST('/search', { body: request });
  };
  // The question's language is read from the question by the server, not taken from the page.
  events = (id: string, pub: boolean, offset = 0) => this.vidx.GET('/collections/{collection_id}/events', { params: { ...inCollection(id), query: { is_public: pub, limit: 24, offset } } });
  event = (id: string, pub: boolean, eventId: string) => this.vidx.GET('/collections/{collection_id}/events/{event_id}', { params: { path: { collection_id: id, event_id: eventId }, query: { is_public: pub } } });
  renameEvent = (id: string, eventId: string, name: string | null) => this.vidx.PATCH('/collections/{collection_id}/events/{event_id}', { params: { path: { collection_id: id, event_id: eventId } }, body: { name } });
  onThisDay = (id: string, pub: boolean) => this.vidx.GET('/collections/{collection_id}/on-this-day', { params: { ...inCollection(id), query: { is_public: pub } } });
  timeline = (id: string, pub: boolean) => this.vidx.GET('/collections/{collection_id}/timeline', { params: { ...inCollection(id), query: { is_public: pub } } });
  places = (id: string, pub: boolean) => this.vidx.GET('/collections/{collection_id}/places', { params: { ...inCollection(id), query: { is_public: pub } } });
  duplicates = (id: string, threshold?: number) => this.vidx.GET('/collections/{collection_id}/duplicates', { params: { ...inCollection(id), query: threshold === undefined ? {} : { threshold } } });
  folders = (id: string) => this.vidx.GET('/collections/{collection_id}/folders', { params: inCollection(id) });
  addFolder = (id: string, f: { path: string; recursive: boolean; watch: boolean }) => this.vidx.POST('/collections/{collection_id}/folders', { params: inCollection(id), body: f });
  scanFolder = (id: string, folderId: string) => this.vidx.POST('/collections/{collection_id}/folders/{folder_id}/scan', { params: { path: { collection_id: id, folder_id: folderId } } });
  removeFolder = (id: string, folderId: string) => this.vidx.DELETE('/collections/{collection_id}/folders/{folder_id}', { params: { path: { collection_id: id, folder_id: folderId } } });
  people = (id: string) => this.vidx.GET('/collections/{collection_id}/people', { params: inCollection(id) });
  setFaces = (id: string, enabled: boolean) => this.vidx.PUT('/collections/{collection_id}/faces', { params: inCollection(id), body: { enabled } });
  setVoices = (id: string, enabled: boolean) => this.vidx.PUT('/collections/{collection_id}/voices', { params: inCollection(id), body: { enabled } });
  personVoices = (id: string, personId: string) => this.vidx.GET('/collections/{collection_id}/people/{person_id}/voices', { params: ofPerson(id, personId) });
  namePerson = (id: string, personId: string, name: string | null) =>
    this.vidx.PUT('/collections/{collection_id}/people/{person_id}', { params: ofPerson(id, personId), body: { name } });
  mergePeople = (id: string, into: string, other: string) =>
    this.vidx.POST('/collections/{collection_id}/people/{person_id}/merge', { params: ofPerson(id, into), body: { person_id: other } });
  deletePerson = (id: string, personId: string) => this.vidx.DELETE('/collections/{collection_id}/people/{person_id}', { params: ofPerson(id, personId) });
  personMoments = (id: string, personId: string) => this.vidx.GET('/collections/{collection_id}/people/{person_id}/moments', { params: ofPerson(id, personId) });
  tasks = () => this.vidx.GET('/tasks', { params: { query: { limit: 50 } } }) as Promise<unknown> as Promise<{ tasks: Task[]; total: number }>;
  retryTask = (id: string) => this.vidx.POST('/tasks/{task_id}/retry', { params: ofTask(id) }) as Promise<unknown> as Promise<Task>;
  deleteTask = (id: string) => this.vidx.DELETE('/tasks/{task_id}', { params: ofTask(id) }) as Promise<unknown> as Promise<Task>;

  /** Streams the elements of /search_clusters or /collection_suggestions (NDJSON) as they arrive. */
  async stream<P extends StreamPath>(path: P, body: RequestBody<P, 'post'>, onElement: (el: StreamElement<P>) => void, signal: AbortSignal): Promise<void> {
    for await (const el of this.vidx.stream(path, body, { signal })) onElement(el);
  }

  /**
   * Uploads a file to POST /index (the multipart body of mediaForm), reporting upload progress; resolves with
   * the task id. XMLHttpRequest rather than the client's upload(), because fetch does not report upload progress.
   */
  upload(file: File, collection: string, language: Lang, onProgress: (sent: number, total: number) => void): { done: Promise<string>; abort: () => void } {
    const xhr = new XMLHttpRequest();
    const done = new Promise<string>((resolve, reject) => {
      // The server names the item after the file; the file's own date goes along as the fallback date (never a recording date).
      const modified = file.lastModified ? { file_modified_at: new Date(file.lastModified).toISOString() } : {};
      const form = mediaForm({ collection, index_language: language, video: { ...modified } }, file, file.name);
      xhr.open('POST', '/index');
      xhr.setRequestHeader('x-api-key', this.key);
      xhr.setRequestHeader('accept', 'application/json');
      xhr.setRequestHeader('accept-language', lang());
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total || file.size);
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // A proxy's HTML error page: the status says enough.
        }
        const taskId = (body as Partial<Schemas['TaskCreated']> | null)?.task_id;
        if (xhr.status === 202 && taskId) resolve(taskId);
        else reject(failureOf({ status: xhr.status, statusText: '' }, body));
      };
      xhr.onerror = () => reject(new VidxError(0, 'network', 'the upload was interrupted'));
      xhr.onabort = () => reject(new VidxError(0, 'aborted', 'the upload was cancelled'));
      xhr.send(form);
    });
    return { done, abort: () => xhr.abort() };
  }
}

const inCollection = (id: string) => ({ path: { collection_id: id } });
const ofItem = (id: string, mediaId: string) => ({ path: { collection_id: id, media_id: mediaId } });
const ofPerson = (id: string, personId: string) => ({ path: { collection_id: id, person_id: personId } });
const ofTask = (id: string) => ({ path: { task_id: id } });

/** Requests without a key: a share link's page (the person opening it has none). */
const anonymous = createVidxClient({ baseUrl: '', headers: language });

/**
 * What a share link shows (`GET /shared/<token>`): a plain request without any key, as the person
 * opening the link has none. A link that is unknown, expired or revoked is a VidxError with status 404.
 * @example
 * const moment = await openShare(token);
 */
export function openShare(token: string): Promise<SharedMoment> {
  return anonymous.GET('/shared/{token}', { params: { path: { token } } });
}
